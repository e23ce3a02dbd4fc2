import { authMachine } from '../../../machines/auth.ts';
import { toastsMachine } from '../../../machines/toasts.ts';
import { vouchersMachine } from '../../../machines/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

// The root's long-lived actors are machines with their own models; here they run as they are
// (auth's defaults: no stored session), so the shell can read them. The session and the voucher
// store arrive with their events, as the app hands them over once their code has loaded.
export default defineHooks({
  actors: { toasts: toastsMachine },
  events: { 'app.sessionLoaded': [{ auth: authMachine }], 'app.voucherStoreLoaded': [{ store: vouchersMachine }] },
});
