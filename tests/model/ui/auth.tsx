import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createActor, type AnyActorRef, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { expect } from 'vitest';
import { appMachine } from '../../../machines/app.ts';
import { authMachine, type AuthContext } from '../../../machines/auth.ts';
import { toastsMachine } from '../../../machines/toasts.ts';
import { provideAuth, sessionEndedMessage } from '../../../src/app/auth.ts';
import { AppProviders } from '../../../src/app/App.tsx';
import type { AppActor } from '../../../src/app/AppActors.tsx';
import { routes } from '../../../src/app/routes.tsx';
import { createI18n } from '../../../src/i18n.ts';
import { installDomStubs } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { visibleToasts } from '../support/app-shell.tsx';

/**
 * The auth machine as a person meets it: the real app (route table, header, login page, the
 * app's own auth actions) opened on /auth/jwt/login. Only the server calls are fakes, settled as
 * the path says; delays pass on the harness's simulated clock.
 */
const user = () => userEvent.setup();
let router: ReturnType<typeof createMemoryRouter>;
/** Set when the path has the server refuse a refresh: the person must be told they were signed out. */
let sessionEnded = false;
const ctx = (s: AnyMachineSnapshot) => s.context as AuthContext;

const signedInHeader = async () => {
  const banner = await screen.findByRole('banner');
  expect(await within(banner).findByRole('button', { name: 'Konto' })).toBeInTheDocument();
};
const signedOut = async () => {
  await waitFor(() => expect(screen.queryByRole('button', { name: 'Konto' })).not.toBeInTheDocument());
};

export default defineUi({
  render(env) {
    sessionEnded = false;
    installDomStubs();
    const auth = provideAuth(authMachine, { sessionEndedMessage }).provide({ actors: env.fakes.forMachine(authMachine) } as never);
    const root = createActor(appMachine.provide({ actors: { toasts: toastsMachine } }), { clock: env.clock }).start();
    root.send({ type: 'app.sessionLoaded', auth });
    env.root = root;
    env.actor = root.system.get('auth') as AnyActorRef;
    router = createMemoryRouter(routes, { initialEntries: ['/auth/jwt/login'] });
    render(
      <AppProviders i18n={createI18n('sv')} actor={root as unknown as AppActor}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
  },
  events: {
    'user.submitNumber': async (_env, event: EventObject) => {
      const field = await screen.findByRole('textbox', { name: 'Mobilnummer' });
      await user().clear(field);
      await user().type(field, (event as EventObject & { mobileNumber: string }).mobileNumber);
      await user().click(screen.getByRole('button', { name: 'Skicka kod' }));
    },
    'user.submitCode': async (_env, event: EventObject) => {
      const field = await screen.findByRole('textbox', { name: 'Kod' });
      await user().clear(field);
      await user().type(field, (event as EventObject & { code: string }).code);
      await user().click(screen.getByRole('button', { name: 'Logga in' }));
    },
    'user.resendCode': async () => {
      await user().click(screen.getByRole('button', { name: 'Skicka ny kod' }));
    },
    'user.changeNumber': async () => {
      await user().click(screen.getByRole('button', { name: 'Byt nummer' }));
    },
    'xstate.error.actor.refreshSession': (env, event: EventObject) => {
      sessionEnded = true;
      env.fakes.reject('refreshSession', (event as EventObject & { error: unknown }).error);
    },
    // Sent by the profile page's machine when a name is saved (its own binding, tests/model/ui/profile.tsx, clicks 'Spara').
    'user.profileSaved': (env, event: EventObject) => {
      env.actor!.send(event);
    },
    'user.signOut': async () => {
      await user().click(await within(screen.getByRole('banner')).findByRole('button', { name: 'Konto' }));
      await user().click(await screen.findByRole('menuitem', { name: 'Logga ut' }));
    },
  },
  states: {
    loading: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Laddar');
    },
    // Restoring from the cookie looks like loading: nothing signed-in or signed-out is shown yet.
    restoring: () => {
      expect(screen.getByRole('status')).toHaveTextContent('Laddar');
      expect(screen.queryByRole('button', { name: 'Konto' })).not.toBeInTheDocument();
      expect(screen.queryByRole('textbox', { name: 'Mobilnummer' })).not.toBeInTheDocument();
    },
    authenticated: async (_env, s) => {
      await signedInHeader();
      const name = ctx(s).user?.name;
      if (name) expect(await within(screen.getByRole('banner')).findByText(name)).toBeInTheDocument();
    },
    signingOut: signedOut,
    unauthenticated: async () => {
      await signedOut();
      if (sessionEnded) await waitFor(() => expect(visibleToasts()).toContain('Du har loggats ut. Logga in igen för att fortsätta.'));
    },
    'unauthenticated.enteringNumber': async (_env, s) => {
      // After signing out the person is on '/', where the header offers 'Logga in'.
      if (router.state.location.pathname !== '/auth/jwt/login') {
        expect((await screen.findAllByRole('link', { name: 'Logga in' })).length).toBeGreaterThan(0);
        return;
      }
      const field = await screen.findByRole('textbox', { name: 'Mobilnummer' });
      expect(field).not.toHaveAttribute('readonly');
      expect(screen.getByRole('button', { name: 'Skicka kod' })).toBeEnabled();
      const error = ctx(s).error;
      if (error) expect(screen.getByRole('alert')).toHaveTextContent(error.message || 'svenskt mobilnummer');
      else expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    'unauthenticated.requestingCode': async () => {
      expect(await screen.findByRole('button', { name: 'Skickar kod…' })).toBeDisabled();
    },
    'unauthenticated.enteringCode': async (_env, s) => {
      expect(await screen.findByRole('textbox', { name: 'Kod' })).not.toHaveAttribute('readonly');
      expect(screen.getByRole('button', { name: 'Logga in' })).toBeEnabled();
      expect(screen.getByText(/Vi har skickat en kod till/)).toHaveTextContent(ctx(s).mobileNumber);
      const error = ctx(s).error;
      if (error) expect(screen.getByRole('alert')).toHaveTextContent(error.message || '6 siffror');
    },
    'unauthenticated.enteringCode.waitingToResend': (_env, s) => {
      expect(screen.getByText(/Du kan be om en ny om/)).toHaveTextContent(`om ${ctx(s).resendIn} sekunder`);
      expect(screen.queryByRole('button', { name: 'Skicka ny kod' })).not.toBeInTheDocument();
    },
    'unauthenticated.enteringCode.canResend': () => {
      expect(screen.getByRole('button', { name: 'Skicka ny kod' })).toBeEnabled();
    },
    'unauthenticated.resendingCode': async () => {
      expect(await screen.findByRole('button', { name: 'Skickar ny kod…' })).toBeDisabled();
    },
    'unauthenticated.loggingIn': async () => {
      expect(await screen.findByRole('button', { name: 'Loggar in…' })).toBeDisabled();
    },
  },
  cleanup: () => {
    sessionStorage.clear();
  },
});
