import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, sendTo, setup, spawnChild, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import {
  BROWSER_DEVICE_ID,
  RESEND_AFTER_SECONDS,
  authMachine,
  looksLikeSwedishMobile,
  type SessionData,
} from '../../machines/auth.ts';
import type { Failure } from '../../contract/errors.ts';

/** A rejection as the implementations hand it over: one Failure (src/components/flow.ts). */
const failure = (status: number, code: Failure['code'], message: string, retryAt: string | null = null): Failure => ({ status, code, message, retryAt });

/** A fake actor whose promises the test settles by hand. */
function controllable<TOut, TIn = unknown>() {
  const calls: { input: TIn; resolve: (v: TOut) => void; reject: (e: unknown) => void }[] = [];
  const logic = fromPromise<TOut, TIn>(({ input }) => new Promise<TOut>((resolve, reject) => calls.push({ input, resolve, reject })));
  return { logic, calls, last: () => calls.at(-1)! };
}

const T0 = Date.parse('2026-11-21T08:00:00Z');
const user = { id: 'u1', mobileNumber: '+46701234567', name: null };
const session = (accessToken = 'access-1', refreshToken: string | null = 'refresh-1', expiresAt = T0 + 15 * 60_000): SessionData => ({
  user,
  accessToken,
  refreshToken,
  expiresAt,
});
const flush = () => vi.advanceTimersByTimeAsync(0);

/** `cookie`: the restore from the browser's refresh cookie is settled by hand too (else it finds nothing). */
function start(opts: { cookie?: boolean } = {}) {
  const restore = controllable<SessionData | null>();
  const fromCookie = controllable<SessionData | null>();
  const requestCode = controllable<{ token: string }, { mobileNumber: string }>();
  const login = controllable<SessionData, { token: string; code: string; deviceId: string }>();
  const refresh = controllable<SessionData, { accessToken: string; refreshToken: string | null }>();
  const revoke = controllable<void, { refreshToken: string | null }>();
  const persistSession = vi.fn();
  const forgetSession = vi.fn();
  const reportRestoreError = vi.fn();
  const toasts: unknown[] = [];
  const machine = authMachine.provide({
    actors: {
      restoreSession: restore.logic,
      ...(opts.cookie ? { restoreFromCookie: fromCookie.logic } : {}),
      requestCode: requestCode.logic,
      login: login.logic,
      refreshSession: refresh.logic,
      revokeSession: revoke.logic,
    },
    actions: {
      persistSession,
      forgetSession,
      reportRestoreError,
      // As the app does (src/app): the text in the shown language, to the toasts actor.
      notifySessionEnded: sendTo(
        ({ system }) => system.get('toasts'),
        () => ({ type: 'toast.show' as const, message: 'Du har loggats ut. Logga in igen för att fortsätta.', variant: 'error' as const }),
      ),
    },
  });
  // The auth actor lives in the app's system next to the toasts actor, as in the app.
  const fakeToasts = setup({ types: { events: {} as { type: 'toast.show'; message: string; variant?: string } } }).createMachine({
    on: { 'toast.show': { actions: ({ event }) => void toasts.push(event) } },
  });
  const root = createActor(
    setup({
      actors: { auth: machine, toasts: fakeToasts },
      actions: {
        spawnToasts: spawnChild('toasts', { systemId: 'toasts' }),
        spawnAuth: spawnChild('auth', { id: 'auth', systemId: 'auth' }),
      },
    }).createMachine({ entry: ['spawnToasts', 'spawnAuth'] }),
  ).start();
  const actor = root.system.get('auth') as ActorRefFrom<typeof authMachine>;
  const snap = () => actor.getSnapshot() as SnapshotFrom<typeof authMachine>;
  return { actor, snap, restore, fromCookie, requestCode, login, refresh, revoke, persistSession, forgetSession, reportRestoreError, toasts };
}

async function atEnteringCode() {
  const t = start();
  t.restore.last().resolve(null);
  await flush();
  t.actor.send({ type: 'user.submitNumber', mobileNumber: ' 070-123 45 67 ' });
  t.requestCode.last().resolve({ token: 'verif-1' });
  await flush();
  return t;
}

async function signedIn() {
  const t = start();
  t.restore.last().resolve(session());
  await flush();
  return t;
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('auth machine: start-up', () => {
  it('starts in loading', () => {
    const t = start();
    expect(t.snap().value).toBe('loading');
    expect(t.restore.calls).toHaveLength(1);
  });

  it('loading → unauthenticated.enteringNumber when there is no stored session', async () => {
    const t = start();
    t.restore.last().resolve(null);
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.snap().context.user).toBeNull();
  });

  it('loading → authenticated.active with the stored session', async () => {
    const t = await signedIn();
    expect(t.snap().value).toEqual({ authenticated: 'active' });
    expect(t.snap().context.user).toEqual(user);
    expect(t.persistSession).toHaveBeenCalledTimes(1);
  });

  it('loading → restoring when the tab has no session: the browser\'s refresh cookie is tried once, still loading', async () => {
    const t = start({ cookie: true });
    t.restore.last().resolve(null);
    await flush();
    expect(t.snap().value).toBe('restoring');
    expect(t.snap().hasTag('session:loading')).toBe(true);
    expect(t.fromCookie.calls).toHaveLength(1);
  });

  it('restoring → authenticated with the cookie\'s session (a new tab), kept in this tab', async () => {
    const t = start({ cookie: true });
    t.restore.last().resolve(null);
    await flush();
    t.fromCookie.last().resolve(session('access-new', 'refresh-new'));
    await flush();
    expect(t.snap().value).toEqual({ authenticated: 'active' });
    expect(t.snap().context).toMatchObject({ user, accessToken: 'access-new', refreshToken: 'refresh-new' });
    expect(t.persistSession).toHaveBeenCalledTimes(1);
    expect(t.fromCookie.calls).toHaveLength(1);
  });

  it('restoring → unauthenticated when the browser has no sign-in, with nothing reported and no toast', async () => {
    const t = start({ cookie: true });
    t.restore.last().resolve(null);
    await flush();
    t.fromCookie.last().resolve(null);
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.reportRestoreError).not.toHaveBeenCalled();
    expect(t.toasts).toEqual([]);
  });

  it('restoring → unauthenticated when the server cannot be reached, and reports it', async () => {
    const t = start({ cookie: true });
    t.restore.last().resolve(null);
    await flush();
    t.fromCookie.last().reject({ status: 0 });
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.reportRestoreError).toHaveBeenCalledTimes(1);
    expect(t.persistSession).not.toHaveBeenCalled();
  });

  it('a stored session never asks the cookie', async () => {
    const t = start({ cookie: true });
    t.restore.last().resolve(session());
    await flush();
    expect(t.fromCookie.calls).toHaveLength(0);
  });

  it('loading → unauthenticated when fetching the user fails, and reports it', async () => {
    const t = start();
    t.restore.last().reject({ status: 500, code: 'INTERNAL_ERROR' });
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.reportRestoreError).toHaveBeenCalledTimes(1);
  });
});

describe('auth machine: sign-in', () => {
  it('refuses a number that is not a Swedish mobile number before sending anything', async () => {
    const t = start();
    t.restore.last().resolve(null);
    await flush();
    t.actor.send({ type: 'user.submitNumber', mobileNumber: '08-123 456 78' });
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.snap().context.error).toEqual({ field: 'mobileNumber', status: 0, code: 'INVALID_MOBILE_NUMBER', message: '', retryAt: null });
    expect(t.requestCode.calls).toHaveLength(0);
  });

  it('enteringNumber → requestingCode → enteringCode, with the countdown started', async () => {
    const t = start();
    t.restore.last().resolve(null);
    await flush();
    t.actor.send({ type: 'user.submitNumber', mobileNumber: ' 070-123 45 67 ' });
    expect(t.snap().value).toEqual({ unauthenticated: 'requestingCode' });
    expect(t.requestCode.last().input).toEqual({ mobileNumber: '070-123 45 67' });
    t.requestCode.last().resolve({ token: 'verif-1' });
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'waitingToResend' } });
    expect(t.snap().context).toMatchObject({ verificationToken: 'verif-1', resendIn: RESEND_AFTER_SECONDS, error: null });
  });

  it('requestingCode → enteringNumber with the server’s error under the number', async () => {
    const t = start();
    t.restore.last().resolve(null);
    await flush();
    t.actor.send({ type: 'user.submitNumber', mobileNumber: '0701234567' });
    t.requestCode.last().reject(failure(429, 'CODE_RATE_LIMITED_NUMBER', 'Vänta 720 sekunder', '2026-01-01T00:12:00.000Z'));
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.snap().context.error).toEqual({ field: 'mobileNumber', ...failure(429, 'CODE_RATE_LIMITED_NUMBER', 'Vänta 720 sekunder', '2026-01-01T00:12:00.000Z') });
    expect(t.snap().context.mobileNumber).toBe('0701234567');
  });

  it('counts down one second at a time, then offers a new code', async () => {
    const t = await atEnteringCode();
    t.actor.send({ type: 'user.resendCode' });
    expect(t.requestCode.calls).toHaveLength(1); // not yet
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.snap().context.resendIn).toBe(RESEND_AFTER_SECONDS - 1);
    await vi.advanceTimersByTimeAsync((RESEND_AFTER_SECONDS - 2) * 1000);
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'waitingToResend' } });
    expect(t.snap().context.resendIn).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'canResend' } });
    expect(t.snap().context.resendIn).toBe(0);
  });

  it('canResend → resendingCode → enteringCode with a new token and a new countdown', async () => {
    const t = await atEnteringCode();
    await vi.advanceTimersByTimeAsync(RESEND_AFTER_SECONDS * 1000);
    t.actor.send({ type: 'user.resendCode' });
    expect(t.snap().value).toEqual({ unauthenticated: 'resendingCode' });
    expect(t.requestCode.last().input).toEqual({ mobileNumber: '070-123 45 67' });
    t.requestCode.last().resolve({ token: 'verif-2' });
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'waitingToResend' } });
    expect(t.snap().context).toMatchObject({ verificationToken: 'verif-2', resendIn: RESEND_AFTER_SECONDS });
  });

  it('resendingCode → enteringCode.canResend with the error by the code field', async () => {
    const t = await atEnteringCode();
    await vi.advanceTimersByTimeAsync(RESEND_AFTER_SECONDS * 1000);
    t.actor.send({ type: 'user.resendCode' });
    t.requestCode.last().reject(failure(503, 'SMS_UNAVAILABLE', 'Vi kan inte skicka sms just nu.'));
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'canResend' } });
    expect(t.snap().context.error).toEqual({ field: 'code', ...failure(503, 'SMS_UNAVAILABLE', 'Vi kan inte skicka sms just nu.') });
    expect(t.snap().context.verificationToken).toBe('verif-1');
  });

  it('user.changeNumber goes back to the number and forgets the verification', async () => {
    const t = await atEnteringCode();
    t.actor.send({ type: 'user.changeNumber' });
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.snap().context).toMatchObject({ verificationToken: null, mobileNumber: '', resendIn: 0, error: null });
    // The countdown no longer runs.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
  });

  it('refuses a code that is not six digits before sending anything', async () => {
    const t = await atEnteringCode();
    t.actor.send({ type: 'user.submitCode', code: '12a45' });
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'waitingToResend' } });
    expect(t.snap().context.error).toEqual({ field: 'code', status: 0, code: 'INVALID_CODE', message: '', retryAt: null });
    expect(t.login.calls).toHaveLength(0);
  });

  it('enteringCode → loggingIn → enteringCode with the wrong-code message, keeping the countdown where it was', async () => {
    const t = await atEnteringCode();
    await vi.advanceTimersByTimeAsync(10_000);
    t.actor.send({ type: 'user.submitCode', code: '123456' });
    expect(t.snap().value).toEqual({ unauthenticated: 'loggingIn' });
    expect(t.login.last().input).toEqual({ token: 'verif-1', code: '123456', deviceId: BROWSER_DEVICE_ID });
    expect(BROWSER_DEVICE_ID).toBe('00000000-0000-0000-0000-000000000000');
    t.login.last().reject(failure(400, 'WRONG_CODE', 'Koden stämmer inte. Du har 4 försök kvar.'));
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'waitingToResend' } });
    expect(t.snap().context.error).toEqual({ field: 'code', ...failure(400, 'WRONG_CODE', 'Koden stämmer inte. Du har 4 försök kvar.') });
    expect(t.snap().context.resendIn).toBe(RESEND_AFTER_SECONDS - 10);
  });

  it('returns to canResend after a failed login that started there', async () => {
    const t = await atEnteringCode();
    await vi.advanceTimersByTimeAsync(RESEND_AFTER_SECONDS * 1000);
    t.actor.send({ type: 'user.submitCode', code: '123456' });
    t.login.last().reject(failure(0, 'NETWORK', 'Ingen anslutning.'));
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: { enteringCode: 'canResend' } });
    expect(t.snap().context.error).toEqual({ field: 'code', ...failure(0, 'NETWORK', 'Ingen anslutning.') });
  });

  it('loggingIn → authenticated, keeping the session and forgetting the sign-in', async () => {
    const t = await atEnteringCode();
    t.actor.send({ type: 'user.submitCode', code: '123456' });
    t.login.last().resolve(session('access-new', 'refresh-new'));
    await flush();
    expect(t.snap().value).toEqual({ authenticated: 'active' });
    expect(t.snap().context).toMatchObject({ user, accessToken: 'access-new', refreshToken: 'refresh-new', verificationToken: null, code: '' });
    expect(t.persistSession).toHaveBeenCalledTimes(1);
  });
});

describe('auth machine: signed in', () => {
  it('refreshes silently a minute before the access token expires', async () => {
    const t = await signedIn();
    await vi.advanceTimersByTimeAsync(14 * 60_000 - 1);
    expect(t.snap().value).toEqual({ authenticated: 'active' });
    await vi.advanceTimersByTimeAsync(1);
    expect(t.snap().value).toEqual({ authenticated: 'refreshing' });
    expect(t.refresh.last().input).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    t.refresh.last().resolve(session('access-2', 'refresh-2', Date.now() + 15 * 60_000));
    await flush();
    expect(t.snap().value).toEqual({ authenticated: 'active' });
    expect(t.snap().context).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(t.persistSession).toHaveBeenCalledTimes(2);
    // And again before the new token expires.
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    expect(t.snap().value).toEqual({ authenticated: 'refreshing' });
  });

  it('refreshes at once when the token is already about to expire', async () => {
    const t = start();
    t.restore.last().resolve(session('a', 'r', T0 + 30_000));
    await flush();
    expect(t.snap().value).toEqual({ authenticated: 'refreshing' });
  });

  it('signs out with an error toast when the refresh fails', async () => {
    const t = await signedIn();
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    t.refresh.last().reject({ status: 401, code: 'REFRESH_TOKEN_REUSED' });
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.snap().context).toMatchObject({ user: null, accessToken: null, refreshToken: null });
    expect(t.forgetSession).toHaveBeenCalledTimes(1);
    expect(t.toasts).toEqual([{ type: 'toast.show', message: 'Du har loggats ut. Logga in igen för att fortsätta.', variant: 'error' }]);
  });

  it('user.signOut → signingOut → unauthenticated, revoking the refresh token', async () => {
    const t = await signedIn();
    t.actor.send({ type: 'user.signOut' });
    expect(t.snap().value).toBe('signingOut');
    expect(t.revoke.last().input).toEqual({ refreshToken: 'refresh-1' });
    t.revoke.last().resolve();
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.snap().context.user).toBeNull();
    expect(t.forgetSession).toHaveBeenCalledTimes(1);
    expect(t.toasts).toEqual([]);
  });

  it('signs out here even when the server cannot be reached', async () => {
    const t = await signedIn();
    t.actor.send({ type: 'user.signOut' });
    t.revoke.last().reject(new Error('offline'));
    await flush();
    expect(t.snap().value).toEqual({ unauthenticated: 'enteringNumber' });
    expect(t.forgetSession).toHaveBeenCalledTimes(1);
  });

  it('user.signOut while refreshing also signs out', async () => {
    const t = await signedIn();
    await vi.advanceTimersByTimeAsync(14 * 60_000);
    t.actor.send({ type: 'user.signOut' });
    expect(t.snap().value).toBe('signingOut');
  });
});

describe('helpers', () => {
  it.each([
    ['070-123 45 67', true],
    ['+46 70 123 45 67', true],
    ['0046701234567', true],
    ['0761234567', true],
    ['(073) 123 45 67', true],
    ['08-123 456 78', false],
    ['0711234567', false],
    ['070123456', false],
    ['+44 7911 123456', false],
    ['', false],
  ])('looksLikeSwedishMobile(%j) is %s', (value, expected) => {
    expect(looksLikeSwedishMobile(value)).toBe(expected);
  });

});

describe('auth machine: tags (what the app reads instead of state names)', () => {
  const tags = (t: ReturnType<typeof start>) => [...t.snap().tags].sort();

  it('says the session status, the sign-in step, and when a request is busy', async () => {
    const t = start();
    expect(tags(t)).toEqual(['session:loading']);
    t.restore.last().resolve(null);
    await flush();
    expect(tags(t)).toEqual(['session:unauthenticated', 'step:number']);
    t.actor.send({ type: 'user.submitNumber', mobileNumber: '0701234567' });
    expect(tags(t)).toEqual(['busy', 'busy:requestingCode', 'session:unauthenticated', 'step:number']);
    // A second submit while busy is ignored by the machine (the page does not guard it).
    t.actor.send({ type: 'user.submitNumber', mobileNumber: '0709999999' });
    expect(t.requestCode.calls).toHaveLength(1);
    t.requestCode.last().resolve({ token: 'verif-1' });
    await flush();
    expect(tags(t)).toEqual(['session:unauthenticated', 'step:code']);
    await vi.advanceTimersByTimeAsync(RESEND_AFTER_SECONDS * 1000);
    expect(tags(t)).toEqual(['canResend', 'session:unauthenticated', 'step:code']);
    t.actor.send({ type: 'user.resendCode' });
    expect(tags(t)).toEqual(['busy', 'busy:resendingCode', 'session:unauthenticated', 'step:code']);
    t.requestCode.last().resolve({ token: 'verif-2' });
    await flush();
    t.actor.send({ type: 'user.submitCode', code: '123456' });
    expect(tags(t)).toEqual(['busy', 'busy:loggingIn', 'session:unauthenticated', 'step:code']);
    t.actor.send({ type: 'user.submitCode', code: '654321' });
    expect(t.login.calls).toHaveLength(1);
    t.login.last().resolve(session());
    await flush();
    expect(tags(t)).toEqual(['session:authenticated']);
    t.actor.send({ type: 'user.signOut' });
    expect(tags(t)).toEqual(['session:unauthenticated', 'signingOut']);
  });
});
