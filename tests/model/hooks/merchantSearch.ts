import type { Failure } from '../../../contract/errors.ts';
import type { Merchant } from '../../../contract/merchant.ts';
import type { MerchantFilters } from '../../../machines/merchantSearch.ts';
import { defineHooks } from '../harness/types.ts';

const merchant = (n: number, name: string): Merchant => ({
  id: `4d0e1a2b-0000-4000-8000-00000000000${n}`,
  name,
  description: `${name} i Stockholm.`,
  logoUrl: '/merchants/kanelbullen.svg',
  category: 'cafe',
  website: null,
  sources: ['InStore'],
  priceFrom: 6500,
  address: null,
  openingHours: null,
});
export const firstPage = [merchant(1, 'Café Kanelbullen'), merchant(2, 'Kaffebaren')];
export const secondPage = [merchant(3, 'Bokhandeln')];
const everything: MerchantFilters = { q: '', category: '', source: '' };
const failure: { error: Failure } = { error: { status: 500, code: 'INTERNAL_ERROR', message: 'Något gick fel hos oss. Försök igen om en stund.', retryAt: null } };

// As on /merchant: the whole catalogue first. A search answers a page with more to come, or
// nothing at all; "show more" answers the last page.
export default defineHooks({
  input: everything,
  events: {
    'user.typed': [{ q: 'kaffe' }],
    'user.filtered': [{ filters: { category: 'cafe' } }],
    'xstate.done.actor.search': [{ output: { items: firstPage, nextCursor: 'c1' } }, { output: { items: [], nextCursor: null } }],
    'xstate.error.actor.search': [failure],
    'xstate.done.actor.searchMore': [{ output: { items: secondPage, nextCursor: null } }],
    'xstate.error.actor.searchMore': [failure],
  },
});
