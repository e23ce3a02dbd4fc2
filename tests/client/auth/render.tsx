import { configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { createActor } from 'xstate';
import { fromCall } from '../../../src/components/flow.ts';
import { AppProviders } from '../../../src/app/App.tsx';
import type { AppActor } from '../../../src/app/AppActors.tsx';
import { routes } from '../../../src/app/routes.tsx';
import { createI18n, type Language } from '../../../src/i18n.ts';
import { appMachine } from '../../../machines/app.ts';
import { authMachine, type SessionData } from '../../../machines/auth.ts';

// The first render loads lazy route chunks; under a busy test run that can take more than 1 s.
configure({ asyncUtilTimeout: 5000 });

/**
 * The real route table and providers, with the real auth machine whose server calls are fakes
 * the test controls (the session comes from the machine, not from a test double).
 */
export interface AuthFakes {
  restoreSession: ReturnType<typeof vi.fn<() => Promise<SessionData | null>>>;
  requestCode: ReturnType<typeof vi.fn<(input: { mobileNumber: string }) => Promise<{ token: string }>>>;
  login: ReturnType<typeof vi.fn<(input: { token: string; code: string; deviceId: string }) => Promise<SessionData>>>;
  revokeSession: ReturnType<typeof vi.fn<(input: { refreshToken: string | null }) => Promise<void>>>;
}

export const testUser = { id: 'u1', mobileNumber: '+46701234567', name: 'Anna' };
export const testSession = (): SessionData => ({ user: testUser, accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 15 * 60_000 });

export function renderApp(path: string, opts: { fakes?: Partial<AuthFakes>; language?: Language; advanceTimers?: (ms: number) => void } = {}) {
  const fakes: AuthFakes = {
    restoreSession: vi.fn(async () => null),
    requestCode: vi.fn(async () => ({ token: 'verif-1' })),
    login: vi.fn(async () => testSession()),
    revokeSession: vi.fn(async () => {}),
    ...opts.fakes,
  } as AuthFakes;
  const auth = authMachine.provide({
    actors: {
      // Through fromCall, as the app's implementations are: a rejection reaches the machine as a Failure.
      restoreSession: fromCall(() => fakes.restoreSession()),
      requestCode: fromCall(({ input }: { input: { mobileNumber: string } }) => fakes.requestCode(input)),
      login: fromCall(({ input }: { input: { token: string; code: string; deviceId: string } }) => fakes.login(input)),
      refreshSession: fromCall(async () => testSession()),
      revokeSession: fromCall(({ input }: { input: { refreshToken: string | null } }) => fakes.revokeSession(input)),
    },
  });
  // The session's code is there from the start (the app hands it over once it has loaded).
  const actor: AppActor = createActor(appMachine).start();
  actor.send({ type: 'app.sessionLoaded', auth });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const i18n = createI18n(opts.language ?? 'sv');
  const utils = render(
    <AppProviders i18n={i18n} actor={actor}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  const user = userEvent.setup(opts.advanceTimers ? { advanceTimers: opts.advanceTimers } : {});
  return { ...utils, router, actor, fakes, user };
}
