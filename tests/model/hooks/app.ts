import { authMachine } from '../../../machines/auth.ts';
import { toastsMachine } from '../../../machines/toasts.ts';
import { defineHooks } from '../harness/types.ts';

// The root's long-lived actors are machines with their own models; here they run as they are
// (auth's defaults: no stored session), so the shell can read them.
export default defineHooks({
  actors: { toasts: toastsMachine, auth: authMachine },
});
