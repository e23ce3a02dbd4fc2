import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { GreetieActionsContext } from '../../../machines/greetieActions.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { delivered } from '../hooks/greetieActions.ts';

/**
 * The sender's actions as the sender meets them on /greetie/details/{id} (the page runs its own
 * machine with the real API calls). The server is fetch, stubbed at the edge: the greetie and its
 * payment answer at once; a cancel, resend or correction answers when the path says.
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0));
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const ctx = (s: AnyMachineSnapshot) => s.context as GreetieActionsContext;
const LABEL = { cancel: 'Avbryt och få pengarna tillbaka', resend: 'Skicka länken igen', correct: 'Rätta numret' } as const;
const TITLE = { cancel: 'Avbryta greetien?', resend: 'Skicka länken igen?', correct: 'Rätta mottagarens nummer' } as const;
const CONFIRM = { cancel: 'Avbryt greetien', resend: 'Skicka igen', correct: 'Rätta numret' } as const;
const DONE = { cancel: 'Greetien är avbruten.', resend: 'Länken är skickad igen.', correct: 'Numret är rättat. Greetien går till 070-123 45 67.' } as const;
const user = () => userEvent.setup();

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input), 'http://app').pathname;
      const method = init?.method ?? 'GET';
      if (method === 'POST' && /\/api\/greetie\/[^/]+\/(cancel|resend|recipient)$/.test(url)) {
        return new Promise<Response>((resolve) => pending.push({ answer: resolve }));
      }
      if (url === `/api/greetie/${delivered.id}`) return Promise.resolve(json(200, delivered));
      if (url === '/api/seller') return Promise.resolve(json(200, { name: 'Greetie AB', orgNumber: '559999-9999', email: 'hej@greetie.se' }));
      return Promise.resolve(json(404, { message: 'Finns inte.', code: 'NOT_FOUND' }));
    });
    renderRoute(`/greetie/details/${delivered.id}`, { session: signedIn({ id: 'u1' }) });
  },
  events: {
    'user.start': async (_env, event: EventObject) => {
      const action = (event as EventObject & { action: keyof typeof LABEL }).action;
      await user().click(await screen.findByRole('button', { name: LABEL[action] }, { timeout: 5000 }));
    },
    'user.confirm': async (_env, event: EventObject) => {
      const { mobileNumber } = event as EventObject & { mobileNumber?: string };
      const dialog = await screen.findByRole('dialog');
      const field = within(dialog).queryByLabelText('Nytt mobilnummer');
      if (field) {
        await user().clear(field);
        if (mobileNumber) await user().type(field, mobileNumber);
      }
      await user().click(within(dialog).getByRole('button', { name: /^(Avbryt greetien|Skicka igen|Rätta numret)$/ }));
    },
    'user.close': async () => {
      const dialog = await screen.findByRole('dialog');
      await user().click(within(dialog).getByRole('button', { name: /^(Tillbaka|Stäng)$/ }));
    },
    'xstate.done.actor.performAction': (_env, event: EventObject) => answered(() => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.performAction': () => answered(() => json(409, { message: 'Mottagaren har redan öppnat greetien.', code: 'GREETIE_ALREADY_OPENED' })),
  },
  states: {
    idle: async () => {
      for (const name of Object.values(LABEL)) expect(await screen.findByRole('button', { name }, { timeout: 5000 })).toBeEnabled();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
    confirming: async (_env, s) => {
      const { action, error } = ctx(s);
      const dialog = await screen.findByRole('dialog', { name: TITLE[action!] });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: CONFIRM[action!] })).toBeEnabled());
      if (action === 'cancel') expect(dialog).toHaveTextContent('Om du avbryter får du tillbaka 349 kr till ditt Swish-konto.');
      if (error) expect(await within(dialog).findByRole('alert')).toHaveTextContent('Skriv ett svenskt mobilnummer');
      else expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    },
    working: async (_env, s) => {
      const dialog = await screen.findByRole('dialog', { name: TITLE[ctx(s).action!] });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: CONFIRM[ctx(s).action!] })).toBeDisabled());
    },
    done: async (_env, s) => {
      const dialog = await screen.findByRole('dialog', { name: TITLE[ctx(s).action!] });
      expect(await within(dialog).findByText(DONE[ctx(s).action!])).toBeInTheDocument();
    },
    failed: async () => {
      const dialog = await screen.findByRole('dialog');
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('Mottagaren har redan öppnat greetien');
    },
  },
  cleanup: () => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  },
});
