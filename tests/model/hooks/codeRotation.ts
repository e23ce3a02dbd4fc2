import type { Failure } from '../../../contract/errors.ts';
import { defineHooks } from '../harness/types.ts';

/** "Byt handlarkod" for Café Kanelbullen's owner: a new code, or a refusal. */
export const MERCHANT_ID = '4d0e1a2b-0000-4000-8000-000000000001';
export const NEW_CODE = 'K7PQ42XM';
export const refused: Failure = { status: 403, code: 'OWNER_ONLY', message: 'Det här får bara handlarens ägare göra.', retryAt: null };

export default defineHooks({
  input: { merchantId: MERCHANT_ID },
  events: {
    'xstate.done.actor.rotateCode': [{ output: { merchantCode: NEW_CODE } }],
    'xstate.error.actor.rotateCode': [{ error: refused }],
  },
});
