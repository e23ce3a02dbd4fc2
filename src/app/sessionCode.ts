import { authMachine } from '../../machines/auth.ts';
import { provideAuth, sessionEndedMessage } from './auth.ts';

/**
 * The session's code, loaded after the first screen (src/app/AppActors.tsx, `loadSession`; decision
 * 011): the auth machine with its real implementations (fetch-backed calls through the API client,
 * sessionStorage, a toast in the shown language: src/app/auth.ts).
 */
export const sessionLogic = provideAuth(authMachine, { sessionEndedMessage });
