import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { ProfileContext } from '../../../machines/profile.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import type { ModelPath } from '../harness/model.ts';
import { defineUi } from '../harness/types.ts';

/**
 * The profile machine as a person meets it, on the page that can produce the path: /my/settings
 * for the consent switch, the name prompt below the header (on '/', for a person with no name)
 * for "not now", /my/profile otherwise. The server is fetch, stubbed at the edge: requests wait
 * until the path says how the server answers.
 */
type Pending = { url: string; answer: (r: Response) => void };
let pending: Pending[] = [];
let page: 'profile' | 'settings' | 'prompt' = 'profile';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answer = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0), { timeout: 5000 });
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const withCreatedAt = (event: EventObject) => ({ ...(event as EventObject & { output: object }).output, createdAt: '2026-11-01T08:00:00.000Z' });
const errorAnswer = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message });
};
const ctx = (s: AnyMachineSnapshot) => s.context as ProfileContext;
const types = (path: ModelPath) => path.events.map((e) => e.type);
const user = () => userEvent.setup();
const prompt = () => screen.queryByRole('region', { name: 'Välkommen till Greetie!' });

export default defineUi({
  skip(path) {
    const t = types(path);
    if (t.includes('user.setMarketing') && t.includes('user.saveName')) return 'the name and the consent are on different pages';
    if (t.includes('user.skip') && t.includes('xstate.done.actor.saveName')) return 'a name saved in the prompt takes the prompt away: there is nothing left to skip';
    return undefined;
  },
  render(env) {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    localStorage.clear();
    vi.spyOn(globalThis, 'fetch').mockImplementation((input) => new Promise<Response>((resolve) => pending.push({ url: String(input), answer: resolve })));
    const t = types(env.path!);
    page = t.includes('user.setMarketing') ? 'settings' : t.includes('user.skip') ? 'prompt' : 'profile';
    const path = { settings: '/my/settings', prompt: '/', profile: '/my/profile' }[page];
    renderRoute(path, { session: signedIn({ id: 'u1', name: page === 'prompt' ? null : 'Anna Andersson' }) });
  },
  events: {
    'user.saveName': async (_env, event: EventObject) => {
      const name = (event as EventObject & { name: string }).name;
      const scope = page === 'prompt' ? within(prompt()!) : screen;
      const field = scope.getByRole('textbox', { name: page === 'prompt' ? 'Vad heter du?' : 'Namn' });
      await user().clear(field);
      if (name) await user().type(field, name);
      await user().click(scope.getByRole('button', { name: page === 'prompt' ? 'Klar' : 'Spara' }));
    },
    'user.setMarketing': async () => {
      await user().click(screen.getByRole('switch', { name: 'Skicka mig erbjudanden och nyheter' }));
    },
    'user.skip': async () => {
      await user().click(within(prompt()!).getByRole('button', { name: 'Inte nu' }));
    },
    'user.retry': async () => {
      await user().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
    'xstate.done.actor.loadProfile': (_env, event) => answer(() => json(200, withCreatedAt(event))),
    'xstate.error.actor.loadProfile': (_env, event) => answer(() => errorAnswer(event)),
    'xstate.done.actor.saveName': (_env, event) => answer(() => json(200, withCreatedAt(event))),
    'xstate.error.actor.saveName': (_env, event) => answer(() => errorAnswer(event)),
    'xstate.done.actor.saveMarketing': (_env, event) => answer(() => json(200, withCreatedAt(event))),
    'xstate.error.actor.saveMarketing': (_env, event) => answer(() => errorAnswer(event)),
  },
  states: {
    loading: async () => {
      if (page === 'prompt') {
        await screen.findByRole('button', { name: 'Konto' }, { timeout: 5000 });
        expect(prompt()).not.toBeInTheDocument();
        return;
      }
      expect(await screen.findByText('Hämtar din profil…', undefined, { timeout: 5000 })).toBeInTheDocument();
    },
    failed: async (_env, s) => {
      if (page === 'prompt') return void expect(prompt()).not.toBeInTheDocument();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Vi kunde inte hämta din profil');
      expect(alert).toHaveTextContent(ctx(s).error?.message ?? '');
    },
    'ready.idle': async (_env, s) => {
      const c = ctx(s);
      if (page === 'settings') {
        const toggle = await screen.findByRole('switch', { name: 'Skicka mig erbjudanden och nyheter' });
        await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', String(c.profile?.allowMarketing)));
        expect(toggle).not.toHaveAttribute('aria-busy');
        if (c.error?.field === 'marketing') expect(screen.getByRole('alert')).toHaveTextContent('Vi kunde inte spara ditt val.');
        return;
      }
      if (page === 'profile' && c.profile?.name) {
        // Saved: the header shows the new name without a reload.
        await waitFor(() => expect(within(screen.getByRole('banner')).getByText(c.profile!.name!)).toBeInTheDocument());
      }
      const scope = page === 'prompt' ? within(await screen.findByRole('region', { name: 'Välkommen till Greetie!' })) : screen;
      const button = await scope.findByRole('button', { name: page === 'prompt' ? 'Klar' : 'Spara' });
      expect(button).toBeEnabled();
      if (c.error?.field === 'name') {
        const alert = await scope.findByRole('alert');
        expect(alert).toHaveTextContent(c.error.code === 'NAME_EMPTY' ? 'Skriv ditt namn.' : c.error.message);
      } else {
        expect(scope.queryByRole('alert')).not.toBeInTheDocument();
      }
    },
    'ready.savingName': async () => {
      const scope = page === 'prompt' ? within(prompt()!) : screen;
      expect(await scope.findByRole('button', { name: 'Sparar…' })).toBeDisabled();
    },
    'ready.savingMarketing': async (_env, s) => {
      const toggle = screen.getByRole('switch', { name: 'Skicka mig erbjudanden och nyheter' });
      expect(toggle).toHaveAttribute('aria-busy', 'true');
      expect(toggle).toHaveAttribute('aria-checked', String(ctx(s).profile?.allowMarketing));
    },
    skipped: async () => {
      await waitFor(() => expect(prompt()).not.toBeInTheDocument());
      expect(localStorage.getItem('greetie.namePrompt.skipped.u1')).toBe('1');
    },
  },
  cleanup: () => {
    vi.restoreAllMocks();
    localStorage.clear();
  },
});
