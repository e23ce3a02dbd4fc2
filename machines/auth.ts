import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';

/**
 * The session's whole life: start-up (`loading` this tab's stored session, then `restoring` one
 * from the browser's refresh cookie when the tab has none: a new tab, e.g. the Swish app coming
 * back), signed in (`authenticated`, with a silent refresh before the access token expires) and
 * signed out (`unauthenticated`, where sign-in by a code sent by SMS happens: enteringNumber →
 * requestingCode → enteringCode → loggingIn).
 *
 * Pure: every side effect is a named actor or action. The defaults here do nothing (or fail);
 * the app gives the real ones with `authMachine.provide(...)` (src/app/AppActors.tsx, via
 * src/api/auth.ts), tests give fakes.
 *
 * Tags say what the app shows, so pages never match state names: `session:loading`,
 * `session:authenticated`, `session:unauthenticated` (with `signingOut` while revoking),
 * `step:number` / `step:code` (which sign-in form), `busy` (a request runs; `busy:<what>` says
 * which), `canResend`.
 *
 * An error is kept in context as the Failure the actor rejected with (contract/errors.ts), or the
 * phone's own check (INVALID_MOBILE_NUMBER, INVALID_CODE), plus `field`: where the page shows it
 * (under the number, or under the code). The page shows the server's message, or words the code.
 */

export interface AuthUser {
  id: string;
  mobileNumber: string;
  name: string | null;
  /** The merchants this person works for (MobileUser.merchants): the account menu offers the portal when there are any. */
  merchants?: readonly { id: string; name: string; role: 'owner' | 'staff' }[];
}

/** A signed-in session as the actors hand it over. `expiresAt`: the access token's exp, in ms. */
export interface SessionData {
  user: AuthUser;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number;
}

export interface AuthError extends Failure {
  field: 'mobileNumber' | 'code';
}

export interface AuthContext {
  user: AuthUser | null;
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: number | null;
  /** The number as the person typed it. */
  mobileNumber: string;
  /** The token of the verification in progress (from /auth/verificationcode). */
  verificationToken: string | null;
  /** The code being checked (kept only while loggingIn). */
  code: string;
  /** Seconds until a new code may be asked for. */
  resendIn: number;
  error: AuthError | null;
}

/** Which sign-in form shows: at most one of these (none while signed in or starting). */
export const SIGN_IN_STEPS = ['step:number', 'step:code'] as const;
/** Which sign-in request runs: at most one of these. */
export const SIGN_IN_BUSY = ['busy:requestingCode', 'busy:resendingCode', 'busy:loggingIn'] as const;

/** What the app reads of the auth machine's state (see the comment at the top). */
export type AuthTag =
  | 'session:loading'
  | 'session:authenticated'
  | 'session:unauthenticated'
  | 'signingOut'
  | (typeof SIGN_IN_STEPS)[number]
  | 'busy'
  | (typeof SIGN_IN_BUSY)[number]
  | 'canResend';

export type AuthEvent =
  | { type: 'user.submitNumber'; mobileNumber: string }
  | { type: 'user.submitCode'; code: string }
  | { type: 'user.resendCode' }
  | { type: 'user.changeNumber' }
  | { type: 'user.signOut' }
  /** The person saved their profile (my pages, the name prompt): the session shows the new name at once. */
  | { type: 'user.profileSaved'; user: AuthUser };

/** Seconds before "send a new code" is offered. */
export const RESEND_AFTER_SECONDS = 30;
/** Refresh this long before the access token expires. */
export const REFRESH_MARGIN_MS = 60_000;
/** The all-zero UUID: a browser has no device identity of its own. */
export const BROWSER_DEVICE_ID = '00000000-0000-0000-0000-000000000000';

/**
 * A light check of a Swedish mobile number before anything is sent: 07X XXX XX XX in any of the
 * usual forms (+46…, 0046…, spaces, dashes). The server does the full check.
 */
export function looksLikeSwedishMobile(value: string): boolean {
  let digits = value.trim().replace(/[\s\-().]/g, '');
  if (digits.startsWith('+46')) digits = `0${digits.slice(3)}`;
  else if (digits.startsWith('0046')) digits = `0${digits.slice(4)}`;
  return /^07[02369]\d{7}$/.test(digits);
}

export const isSixDigitCode = (value: string) => /^\d{6}$/.test(value.trim());

const at = (field: AuthError['field'], failure: Failure): AuthError => ({ ...failure, field });
const check = (field: AuthError['field'], code: Failure['code']): AuthError => at(field, { status: 0, code, message: '', retryAt: null });

const signedOut = {
  user: null,
  accessToken: null,
  refreshToken: null,
  expiresAt: null,
} as const;

const noSignIn = { mobileNumber: '', verificationToken: null, code: '', resendIn: 0, error: null } as const;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    tags: {} as AuthTag,
  },
  actors: {
    /** Start-up: a stored, unexpired access token and the user it belongs to, or null. */
    restoreSession: fromPromise<SessionData | null>(async () => null),
    /**
     * Start-up in a tab with no stored session: POST /auth/refresh with the browser's refresh
     * cookie alone, then GET /auth/my; null when the browser has no session to restore.
     */
    restoreFromCookie: fromPromise<SessionData | null>(async () => null),
    /** POST /auth/verificationcode. */
    requestCode: fromPromise<{ token: string }, { mobileNumber: string }>(async () => {
      throw new Error('requestCode is not provided');
    }),
    /** POST /auth/login, then GET /auth/my with the new token. */
    login: fromPromise<SessionData, { token: string; code: string; deviceId: string }>(async () => {
      throw new Error('login is not provided');
    }),
    /** POST /auth/refresh, then GET /auth/my. */
    refreshSession: fromPromise<SessionData, { accessToken: string; refreshToken: string | null }>(async () => {
      throw new Error('refreshSession is not provided');
    }),
    /** POST /auth/logout (revokes the refresh token family). */
    revokeSession: fromPromise<void, { refreshToken: string | null }>(async () => {}),
  },
  actions: {
    /** Keeps the session an actor answered with (restoreSession's null never gets here: isSignedIn). */
    assignSession: assign((_, s: SessionData | null) =>
      s ? { user: s.user, accessToken: s.accessToken, refreshToken: s.refreshToken, expiresAt: s.expiresAt, ...noSignIn } : {},
    ),
    clearSession: assign(() => ({ ...signedOut, ...noSignIn })),
    /** Keep the tokens (sessionStorage `accessToken`) and use them as the bearer token. Provided by the app. */
    persistSession: () => {},
    /** Forget the stored tokens and the bearer token. Provided by the app. */
    forgetSession: () => {},
    /** Log why start-up found no session (never the token). Provided by the app. */
    reportRestoreError: () => {},
    /**
     * Tell the person the session could not be renewed (a toast in the language shown at that
     * moment: only the app knows it). Provided by the app.
     */
    notifySessionEnded: () => {},
    assignMobileNumber: assign(({ event }) => (event.type === 'user.submitNumber' ? { mobileNumber: event.mobileNumber.trim(), error: null } : {})),
    assignInvalidNumber: assign({ error: check('mobileNumber', 'INVALID_MOBILE_NUMBER') }),
    assignNumberError: assign((_, p: { error: Failure }) => ({ error: at('mobileNumber', p.error) })),
    assignVerification: assign((_, p: { token: string }) => ({
      verificationToken: p.token,
      resendIn: RESEND_AFTER_SECONDS,
      code: '',
      error: null,
    })),
    assignCode: assign(({ event }) => (event.type === 'user.submitCode' ? { code: event.code.trim(), error: null } : {})),
    assignInvalidCode: assign({ error: check('code', 'INVALID_CODE') }),
    assignCodeError: assign((_, p: { error: Failure }) => ({ code: '', error: at('code', p.error) })),
    tickCountdown: assign(({ context }) => ({ resendIn: Math.max(0, context.resendIn - 1) })),
    clearVerification: assign(() => ({ ...noSignIn })),
    clearError: assign({ error: null }),
    /** The saved profile replaces the session's user, when it is the same person. */
    assignSavedProfile: assign(({ context, event }) =>
      event.type === 'user.profileSaved' && context.user && event.user.id === context.user.id
        ? { user: { ...context.user, id: event.user.id, mobileNumber: event.user.mobileNumber, name: event.user.name } }
        : {},
    ),
  },
  guards: {
    isSignedIn: (_, p: { session: SessionData | null }) => p.session !== null,
    isSwedishMobileNumber: ({ event }) => event.type === 'user.submitNumber' && looksLikeSwedishMobile(event.mobileNumber),
    isSixDigitCode: ({ event }) => event.type === 'user.submitCode' && isSixDigitCode(event.code),
    isCountdownOver: ({ context }) => context.resendIn <= 1,
  },
  delays: {
    /** One second of the resend countdown. */
    countdownTick: 1000,
    /** Until shortly before the access token expires (at once if that is already past). */
    refreshBeforeExpiry: ({ context }) => Math.max(0, (context.expiresAt ?? 0) - REFRESH_MARGIN_MS - Date.now()),
  },
}).createMachine({
  id: 'auth',
  description:
    'Inloggningen: när appen startar hämtas den här flikens sparade inloggning, annars frågar den webbläsaren. Sedan är personen inloggad eller utloggad (där inloggning med sms-kod sker).',
  context: { ...signedOut, ...noSignIn },
  initial: 'loading',
  states: {
    loading: {
      description: 'Appen startar: letar efter en sparad inloggning som gäller och hämtar personen.',
      tags: ['session:loading'],
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticated',
            actions: [{ type: 'assignSession', params: ({ event }) => event.output }, 'persistSession'],
            description: 'Den sparade inloggningen gäller: inloggad.',
          },
          { target: 'restoring', description: 'Ingen sparad inloggning i fliken, eller den har gått ut: fråga webbläsaren.' },
        ],
        onError: {
          target: 'unauthenticated',
          actions: 'reportRestoreError',
          description: 'Personen kunde inte hämtas: börjar utloggad (felet loggas, aldrig nyckeln).',
        },
      },
    },

    restoring: {
      description:
        'Appen startar i en flik utan egen inloggning (en ny flik, till exempel tillbaka från Swish): försöker en gång återställa inloggningen via webbläsaren.',
      tags: ['session:loading'],
      invoke: {
        id: 'restoreFromCookie',
        src: 'restoreFromCookie',
        onDone: [
          {
            guard: { type: 'isSignedIn', params: ({ event }) => ({ session: event.output }) },
            target: 'authenticated',
            actions: [{ type: 'assignSession', params: ({ event }) => event.output }, 'persistSession'],
            description: 'Webbläsaren var inloggad: inloggningen fortsätter i den här fliken.',
          },
          { target: 'unauthenticated', description: 'Ingen inloggning i den här webbläsaren (ingen, eller den har gått ut eller dragits tillbaka).' },
        ],
        onError: {
          target: 'unauthenticated',
          actions: 'reportRestoreError',
          description: 'Servern svarade inte: börjar utloggad (felet loggas, aldrig nyckeln).',
        },
      },
    },

    authenticated: {
      description: 'Inloggad. Inloggningen förnyas i tysthet strax innan den går ut.',
      tags: ['session:authenticated'],
      initial: 'active',
      on: {
        'user.signOut': { target: 'signingOut', description: 'Personen loggar ut.' },
        'user.profileSaved': { actions: 'assignSavedProfile', description: 'Personen sparade sin profil: sidhuvudet visar det nya namnet.' },
      },
      states: {
        active: {
          description: 'Inloggad, väntar tills det är dags att förnya inloggningen.',
          after: {
            refreshBeforeExpiry: { target: 'refreshing', description: 'Inloggningen går snart ut.' },
          },
        },
        refreshing: {
          description: 'Inloggningen förnyas utan att personen märker något.',
          invoke: {
            id: 'refreshSession',
            src: 'refreshSession',
            input: ({ context }) => ({ accessToken: context.accessToken ?? '', refreshToken: context.refreshToken }),
            onDone: { target: 'active', actions: [{ type: 'assignSession', params: ({ event }) => event.output }, 'persistSession'], description: 'Förnyad: fortfarande inloggad.' },
            onError: {
              target: '#auth.unauthenticated',
              actions: ['forgetSession', 'clearSession', 'notifySessionEnded'],
              description: 'Inloggningen kunde inte förnyas: utloggad, och en avisering säger det.',
            },
          },
        },
      },
    },

    signingOut: {
      description: 'Inloggningen avslutas på servern och glöms sedan här.',
      // Signed out at once for the person: the header switches while the server revokes.
      tags: ['session:unauthenticated', 'signingOut'],
      invoke: {
        id: 'revokeSession',
        src: 'revokeSession',
        input: ({ context }) => ({ refreshToken: context.refreshToken }),
        onDone: { target: 'unauthenticated', actions: ['forgetSession', 'clearSession'], description: 'Utloggad.' },
        onError: {
          target: 'unauthenticated',
          actions: ['forgetSession', 'clearSession'],
          description: 'Servern svarade inte; utloggad här ändå.',
        },
      },
    },

    unauthenticated: {
      description: 'Utloggad. Här loggar man in: nummer, kod via sms, inloggad.',
      tags: ['session:unauthenticated'],
      initial: 'enteringNumber',
      states: {
        enteringNumber: {
          description: 'Personen skriver sitt mobilnummer.',
          tags: ['step:number'],
          on: {
            'user.submitNumber': [
              {
                guard: 'isSwedishMobileNumber',
                target: 'requestingCode',
                actions: 'assignMobileNumber',
                description: 'Ett svenskt mobilnummer: be om en kod.',
              },
              { actions: 'assignInvalidNumber', description: 'Inte ett svenskt mobilnummer: stoppas innan något skickas.' },
            ],
          },
        },
        requestingCode: {
          description: 'Servern ombeds skicka en kod via sms.',
          tags: ['step:number', 'busy', 'busy:requestingCode'],
          invoke: {
            id: 'requestCode',
            src: 'requestCode',
            input: ({ context }) => ({ mobileNumber: context.mobileNumber }),
            onDone: { target: 'enteringCode', actions: { type: 'assignVerification', params: ({ event }) => event.output }, description: 'Koden är på väg.' },
            onError: { target: 'enteringNumber', actions: { type: 'assignNumberError', params: ({ event }) => ({ error: event.error as Failure }) }, description: 'Ingen kod skickades; skälet visas under numret.' },
          },
        },
        enteringCode: {
          description: 'Personen skriver den sexsiffriga koden från sms:et. En ny kod kan begäras efter en nedräkning.',
          tags: ['step:code'],
          initial: 'waitingToResend',
          on: {
            'user.submitCode': [
              { guard: 'isSixDigitCode', target: 'loggingIn', actions: 'assignCode', description: 'Sex siffror: koden kontrolleras.' },
              { actions: 'assignInvalidCode', description: 'Inte sex siffror: stoppas innan något skickas.' },
            ],
            'user.changeNumber': { target: 'enteringNumber', actions: 'clearVerification', description: 'Tillbaka för att byta nummer.' },
          },
          states: {
            waitingToResend: {
              description: 'Nedräkning innan en ny kod kan begäras.',
              after: {
                countdownTick: [
                  { guard: 'isCountdownOver', target: 'canResend', actions: 'tickCountdown', description: 'Nedräkningen är klar.' },
                  { target: 'waitingToResend', reenter: true, actions: 'tickCountdown', description: 'En sekund kortare att vänta.' },
                ],
              },
            },
            canResend: {
              description: 'En ny kod kan begäras.',
              tags: ['canResend'],
              on: {
                'user.resendCode': { target: '#auth.unauthenticated.resendingCode', actions: 'clearError', description: 'Skicka en ny kod.' },
              },
            },
            history: { type: 'history', description: 'Var nedräkningen var före inloggningsförsöket.' },
          },
        },
        resendingCode: {
          description: 'Servern ombeds skicka en ny kod till samma nummer.',
          tags: ['step:code', 'busy', 'busy:resendingCode'],
          invoke: {
            id: 'resendCode',
            src: 'requestCode',
            input: ({ context }) => ({ mobileNumber: context.mobileNumber }),
            onDone: { target: 'enteringCode', actions: { type: 'assignVerification', params: ({ event }) => event.output }, description: 'En ny kod är på väg; den gamla gäller inte längre.' },
            onError: {
              target: '#auth.unauthenticated.enteringCode.canResend',
              actions: { type: 'assignCodeError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Ingen ny kod skickades; skälet visas vid kodfältet.',
            },
          },
        },
        loggingIn: {
          description: 'Koden kontrolleras hos servern och personen hämtas.',
          tags: ['step:code', 'busy', 'busy:loggingIn'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ context }) => ({ token: context.verificationToken ?? '', code: context.code, deviceId: BROWSER_DEVICE_ID }),
            onDone: { target: '#auth.authenticated', actions: [{ type: 'assignSession', params: ({ event }) => event.output }, 'persistSession'], description: 'Koden stämde: inloggad.' },
            onError: {
              target: '#auth.unauthenticated.enteringCode.history',
              actions: { type: 'assignCodeError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Fel eller för gammal kod (eller inget svar): skälet visas vid kodfältet.',
            },
          },
        },
      },
    },
  },
});
