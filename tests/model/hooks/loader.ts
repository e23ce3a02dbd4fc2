import { defineHooks } from '../harness/types.ts';

// The loader's invoke has no id of its own: xstate names it after its state (0.loader.loading).
const notFound = { error: Object.assign(new Error('Hittades inte.'), { status: 404, userMessage: 'Handlaren finns inte.' }) };
const failure = { error: Object.assign(new Error('Något gick fel.'), { status: 500, userMessage: 'Något gick fel. Försök igen.' }) };

export default defineHooks({
  events: {
    'user.load': [{ params: { id: 'm1' } }],
    'user.loadLater': [{ params: { q: 'kaffe' } }],
    'xstate.done.actor.0.loader.loading': [{ output: [{ id: 'm1', name: 'Kaffebaren' }] }],
    'xstate.error.actor.0.loader.loading': [notFound, failure],
  },
});
