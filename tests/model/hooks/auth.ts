import type { Failure } from '../../../contract/errors.ts';
import type { AnyMachineSnapshot } from 'xstate';
import type { AuthContext, SessionData } from '../../../machines/auth.ts';
import { defineHooks } from '../harness/types.ts';

// expiresAt 0: the refresh is due at once (the delay is max(0, …)), so the simulated clock only
// has to move 0 ms for "the access token expires soon".
const session: SessionData = {
  user: { id: 'u1', mobileNumber: '+46701234567', name: 'Anna Andersson' },
  accessToken: 'access-token',
  refreshToken: 'refresh-token',
  expiresAt: 0,
};

/** A failure as the implementations hand it over (contract/errors.ts). */
const serverError = (status: number, code: Failure['code'], message: string): { error: Failure } => ({ error: { status, code, message, retryAt: null } });

export default defineHooks({
  events: {
    'xstate.done.actor.restoreSession': [{ output: null }, { output: session }],
    'xstate.error.actor.restoreSession': [serverError(0, 'NETWORK', 'Kunde inte nå servern.')],
    // A new tab: the browser's refresh cookie restores the session, or there is none.
    'xstate.done.actor.restoreFromCookie': [{ output: null }, { output: session }],
    'xstate.error.actor.restoreFromCookie': [serverError(0, 'NETWORK', 'Kunde inte nå servern.')],
    'user.submitNumber': [{ mobileNumber: '070-123 45 67' }, { mobileNumber: '12345' }],
    'xstate.done.actor.requestCode': [{ output: { token: 'verification-token' } }],
    'xstate.error.actor.requestCode': [serverError(429, 'CODE_RATE_LIMITED_NUMBER', 'För många försök. Försök igen om en stund.')],
    'user.submitCode': [{ code: '123456' }, { code: '12' }],
    'xstate.done.actor.login': [{ output: session }],
    'xstate.error.actor.login': [serverError(400, 'WRONG_CODE', 'Koden stämmer inte.')],
    'xstate.done.actor.resendCode': [{ output: { token: 'verification-token-2' } }],
    'xstate.error.actor.resendCode': [serverError(429, 'CODE_RATE_LIMITED_NUMBER', 'För många försök. Försök igen om en stund.')],
    'xstate.done.actor.refreshSession': [{ output: session }],
    'xstate.error.actor.refreshSession': [serverError(401, 'REFRESH_TOKEN_INVALID', 'Sessionen har gått ut.')],
    'xstate.done.actor.revokeSession': [{ output: undefined }],
    'xstate.error.actor.revokeSession': [serverError(0, 'NETWORK', 'Kunde inte nå servern.')],
    // The profile page (machines/profile.ts) tells the session a name was saved.
    'user.profileSaved': [{ user: { id: 'u1', mobileNumber: '+46701234567', name: 'Bertil Berg' } }],
  },
  states: {
    authenticated: (s: AnyMachineSnapshot) => {
      const c = s.context as AuthContext;
      if (!c.user || !c.accessToken) throw new Error('signed in without a user and a token');
    },
    unauthenticated: (s: AnyMachineSnapshot) => {
      const c = s.context as AuthContext;
      if (c.user || c.accessToken) throw new Error('signed out but a user or token is still kept');
    },
  },
});
