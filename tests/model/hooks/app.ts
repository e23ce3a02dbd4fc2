import { authMachine } from '../../../machines/auth.ts';
import { toastsMachine } from '../../../machines/toasts.ts';
import { vouchersMachine } from '../../../machines/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

// The root's long-lived actors are machines with their own models; here they run as they are
// (auth's defaults: no stored session), so the shell can read them. The voucher store arrives with
// its event, as the app hands it over once a page that shows gifts has loaded its code.
export default defineHooks({
  actors: { toasts: toastsMachine, auth: authMachine },
  events: { 'app.voucherStoreLoaded': [{ store: vouchersMachine }] },
});
