import type { Failure } from '../../../contract/errors.ts';
import type { Profile } from '../../../machines/profile.ts';
import { defineHooks } from '../harness/types.ts';

/** A person with no name yet and no consent: what the name prompt and my pages start from. */
export const profile: Profile = { id: 'u1', mobileNumber: '+46701234567', name: null, allowMarketing: false };

const failure = (code: Failure['code'], message: string, status: number): { error: Failure } => ({ error: { code, message, status, retryAt: null } });

export default defineHooks({
  input: { userId: 'u1' },
  events: {
    'xstate.done.actor.loadProfile': [{ output: profile }],
    'xstate.error.actor.loadProfile': [failure('INTERNAL_ERROR', 'Något gick fel hos oss. Försök igen om en stund.', 500)],
    // A name the server takes, and one refused before anything is sent.
    'user.saveName': [{ name: '  Anna Berg ' }, { name: '   ' }],
    'xstate.done.actor.saveName': [{ output: { ...profile, name: 'Anna Berg' } }],
    'xstate.error.actor.saveName': [failure('SERVICE_UNAVAILABLE', 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.', 503)],
    'user.setMarketing': [{ allowed: true }],
    'xstate.done.actor.saveMarketing': [{ output: { ...profile, allowMarketing: true } }],
    'xstate.error.actor.saveMarketing': [failure('DB_UNAVAILABLE', 'Databasen svarar inte.', 503)],
  },
});
