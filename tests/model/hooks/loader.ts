import type { Merchant } from '../../../contract/merchant.ts';
import { defineHooks } from '../harness/types.ts';

// The loader's invoke has no id of its own: xstate names it after its state (0.loader.loading).
const notFound = { error: Object.assign(new Error('Hittades inte.'), { status: 404, userMessage: 'Handlaren finns inte.' }) };
const failure = { error: Object.assign(new Error('Något gick fel.'), { status: 500, userMessage: 'Något gick fel. Försök igen.' }) };

const merchant = (n: number, name: string): Merchant => ({
  id: `4d0e1a2b-0000-4000-8000-00000000000${n}`,
  name,
  description: `${name} i Stockholm.`,
  logoUrl: '/merchants/kanelbullen.svg',
  category: 'cafe',
  website: null,
  sources: ['InStore'],
  priceFrom: 6500,
});
export const allMerchants = [merchant(1, 'Café Kanelbullen'), merchant(2, 'Kaffebaren'), merchant(3, 'Bokhandeln')];
export const searched = [merchant(2, 'Kaffebaren')];
const everything = { q: '', category: '', source: '' };

export default defineHooks({
  events: {
    'user.load': [{ params: { id: 'm1' } }],
    'user.loadLater': [{ params: { q: 'kaffe' } }],
    'xstate.done.actor.0.loader.loading': [{ output: [{ id: 'm1', name: 'Kaffebaren' }] }],
    'xstate.error.actor.0.loader.loading': [notFound, failure],
  },
  scenarios: {
    // As on /merchant: the list loads, the person types a search, the new list loads after a pause.
    'Searching the merchant list waits for a pause in typing': [
      { type: 'user.load', params: everything },
      { type: 'xstate.done.actor.0.loader.loading', output: { items: allMerchants, nextCursor: null } },
      { type: 'user.loadLater', params: { ...everything, q: 'kaffe' } },
      { type: 'xstate.after.debounce.loader.waiting' },
      { type: 'xstate.done.actor.0.loader.loading', output: { items: searched, nextCursor: null } },
    ],
  },
});
