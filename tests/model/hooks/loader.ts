import { defineHooks } from '../harness/types.ts';

// As a merchant's page loads it: the params are the merchant's id, the data its name and gifts.
const notFound = { error: Object.assign(new Error('Hittades inte.'), { status: 404, userMessage: 'Handlaren finns inte.' }) };
const failure = { error: Object.assign(new Error('Något gick fel.'), { status: 500, userMessage: 'Något gick fel. Försök igen.' }) };

export default defineHooks({
  input: { id: 'm1' },
  events: {
    'xstate.done.actor.load': [{ output: { merchant: { id: 'm1', name: 'Kaffebaren' }, products: [] } }],
    'xstate.error.actor.load': [notFound, failure],
  },
});
