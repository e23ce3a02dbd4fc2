import type { Failure } from '../../../contract/errors.ts';
import { defineHooks } from '../harness/types.ts';

// As a merchant's page loads it: the params are the merchant's id, the data its name and gifts.
const notFound: { error: Failure } = { error: { status: 404, code: 'MERCHANT_NOT_FOUND', message: 'Handlaren finns inte.', retryAt: null } };
const failure: { error: Failure } = { error: { status: 500, code: 'INTERNAL_ERROR', message: 'Något gick fel hos oss. Försök igen om en stund.', retryAt: null } };

export default defineHooks({
  input: { id: 'm1' },
  events: {
    'xstate.done.actor.load': [{ output: { merchant: { id: 'm1', name: 'Kaffebaren' }, products: [] } }],
    'xstate.error.actor.load': [notFound, failure],
  },
});
