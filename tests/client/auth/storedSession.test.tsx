import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createActor, fromPromise } from 'xstate';
import { ACCESS_TOKEN_KEY, SIGNED_IN_HINT_KEY, liveAccessToken, maySignIn } from '../../../src/app/storedSession.ts';
import { appMachine } from '../../../machines/app.ts';
import { authMachine, type SessionData } from '../../../machines/auth.ts';
import { AppProviders } from '../../../src/app/App.tsx';
import { createAppActor, forgetLateActors } from '../../../src/app/AppActors.tsx';
import { useSession } from '../../../src/components/session.ts';
import { createI18n } from '../../../src/i18n.ts';

/** An unsigned JWT-shaped token; only `exp` (seconds) is read. */
const jwt = (exp: number) => `${btoa(JSON.stringify({ alg: 'HS256' }))}.${btoa(JSON.stringify({ sub: 'u1', exp }))}.sig`;
const NOW = 1_800_000_000_000;
const storage = (token: string | null) => ({ getItem: (key: string) => (key === ACCESS_TOKEN_KEY ? token : null) });

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  forgetLateActors();
});

describe('liveAccessToken (the start-up and the greetie view read the stored token the same way)', () => {
  it('gives the token while it is good for longer than the margin', () => {
    const token = jwt(NOW / 1000 + 120);
    expect(liveAccessToken(storage(token), 0, NOW)).toBe(token);
    expect(liveAccessToken(storage(token), 30_000, NOW)).toBe(token);
    expect(liveAccessToken(storage(token), 120_000, NOW)).toBeNull();
  });

  it('gives null for no token, an expired one, one without exp, and one that is not a JWT', () => {
    expect(liveAccessToken(storage(null), 0, NOW)).toBeNull();
    expect(liveAccessToken(storage(jwt(NOW / 1000)), 0, NOW)).toBeNull();
    expect(liveAccessToken(storage(`${btoa('{}')}.${btoa('{"sub":"u1"}')}.sig`), 0, NOW)).toBeNull();
    expect(liveAccessToken(storage('not-a-jwt'), 0, NOW)).toBeNull();
  });
});

describe('maySignIn (read from storage before the session code is there)', () => {
  it('is false for a visitor: nothing stored, or only an expired token', () => {
    expect(maySignIn()).toBe(false);
    sessionStorage.setItem(ACCESS_TOKEN_KEY, jwt(Date.now() / 1000 - 10));
    expect(maySignIn()).toBe(false);
  });

  it('is true with a live token in the tab or the signed-in hint of the browser', () => {
    sessionStorage.setItem(ACCESS_TOKEN_KEY, jwt(Date.now() / 1000 + 600));
    expect(maySignIn()).toBe(true);
    sessionStorage.clear();
    localStorage.setItem(SIGNED_IN_HINT_KEY, '1');
    expect(maySignIn()).toBe(true);
  });
});

function Status() {
  const { status, user } = useSession();
  return <p>{`${status}${user ? ` ${user.name}` : ''}`}</p>;
}

const anna: SessionData = {
  user: { id: 'u1', mobileNumber: '+46701234567', name: 'Anna' },
  accessToken: 'a',
  refreshToken: 'r',
  expiresAt: Date.now() + 15 * 60_000,
};

function renderStatus(root: ReturnType<typeof createAppActor>) {
  render(
    <AppProviders i18n={createI18n('sv')} actor={root}>
      <Status />
    </AppProviders>,
  );
}

describe('the session before its code has loaded (machines/app.ts, src/app/session.ts)', () => {
  it('a visitor is signed out at once, and stays so while the session starts (no loading in between)', async () => {
    const root = createAppActor(appMachine, { maySignIn: false });
    renderStatus(root);
    expect(screen.getByText('unauthenticated')).toBeInTheDocument();
    let answer: (s: SessionData | null) => void = () => {};
    const auth = authMachine.provide({ actors: { restoreSession: fromPromise(() => new Promise<SessionData | null>((r) => (answer = r))) } });
    act(() => root.send({ type: 'app.sessionLoaded', auth }));
    expect(root.getSnapshot().matches({ running: { session: 'withSession' } })).toBe(true);
    expect(screen.getByText('unauthenticated')).toBeInTheDocument();
    await act(async () => answer(null));
    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
  });

  it('a browser with something stored is loading until the session knows: never signed out in between', async () => {
    const root = createAppActor(appMachine, { maySignIn: true });
    renderStatus(root);
    expect(screen.getByText('loading')).toBeInTheDocument();
    const auth = authMachine.provide({ actors: { restoreSession: fromPromise<SessionData | null>(async () => anna) } });
    act(() => root.send({ type: 'app.sessionLoaded', auth }));
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(await screen.findByText('authenticated Anna')).toBeInTheDocument();
  });

  it('starts the session once: a second hand-over is ignored', () => {
    const root = createActor(appMachine).start();
    root.send({ type: 'app.sessionLoaded', auth: authMachine });
    const first = root.system.get('auth');
    root.send({ type: 'app.sessionLoaded', auth: authMachine });
    expect(root.system.get('auth')).toBe(first);
    root.stop();
  });
});
