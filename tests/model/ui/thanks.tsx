import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { ThanksContext } from '../../../machines/thanks.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { greetie } from '../hooks/compose.ts';
import { GREETIE_ID } from '../hooks/thanks.ts';

/**
 * The thank-you as its recipient meets it: the greetie opened by id (signed in with the number it
 * was sent to), on a phone, with reduced motion so the page is revealed at once. The server is
 * fetch, stubbed at the edge: the greetie answers at once; POST …/thanks answers when the path says.
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];
let posted: unknown[] = [];

const RECIPIENT = '+46701234567';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const opened = greetie({
  id: GREETIE_ID,
  status: 'delivered',
  sender: { id: 'a1a1a1a1-0000-4000-8000-000000000001', name: 'Anna' },
  recipient: { name: 'Bo', mobileNumber: RECIPIENT },
  message: 'Grattis!',
  deliveredAt: '2026-11-23T08:00:00.000Z',
});
const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0));
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const ctx = (s: AnyMachineSnapshot) => s.context as ThanksContext;
const user = () => userEvent.setup();
const form = () => screen.findByRole('region', { name: 'Tacka Anna' }, { timeout: 5000 });
const EMOJI_NAME: Record<string, string> = { '🎉': 'Fest' };

/** The form shows the draft as the machine holds it: text, counter, emoji. */
async function showsDraft(s: AnyMachineSnapshot) {
  const region = await form();
  const field = within(region).getByLabelText('Ditt tack');
  await waitFor(() => expect(field).toHaveValue(ctx(s).message));
  expect(within(region).getByText(`${ctx(s).message.length}/500 tecken`)).toBeInTheDocument();
  const emoji = ctx(s).emoji;
  expect(within(region).getByRole('radio', { name: emoji ? EMOJI_NAME[emoji]! : 'Ingen' })).toBeChecked();
  return region;
}

export default defineUi({
  render() {
    pending = [];
    posted = [];
    installDomStubs({ viewport: 'mobile', reducedMotion: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input), 'http://app').pathname;
      const method = init?.method ?? 'GET';
      if (method === 'POST' && url === `/api/greetie/${GREETIE_ID}/thanks`) {
        posted.push(JSON.parse(String(init?.body)));
        return new Promise<Response>((resolve) => pending.push({ answer: resolve }));
      }
      if (url === `/api/greetie/${GREETIE_ID}`) return Promise.resolve(json(200, opened));
      return Promise.resolve(json(404, { message: 'Finns inte.', code: 'NOT_FOUND' }));
    });
    renderRoute(`/greetie/view/${GREETIE_ID}?byId=true`, { session: signedIn({ id: 'b2b2b2b2-0000-4000-8000-000000000002', mobileNumber: RECIPIENT }) });
  },
  events: {
    'user.write': async (_env, event: EventObject) => {
      const { message } = event as EventObject & { message: string };
      const field = within(await form()).getByLabelText('Ditt tack');
      await user().clear(field);
      if (message) await user().type(field, message);
    },
    'user.pickEmoji': async (_env, event: EventObject) => {
      const { emoji } = event as EventObject & { emoji: string | null };
      await user().click(within(await form()).getByRole('radio', { name: emoji ? EMOJI_NAME[emoji]! : 'Ingen' }));
    },
    'user.send': async () => {
      await user().click(within(await form()).getByRole('button', { name: 'Skicka tack' }));
    },
    'xstate.done.actor.sendThanks': (_env, event: EventObject) => {
      const { output } = event as EventObject & { output: unknown };
      return answered(() => json(200, { ...opened, viewed: true, thanks: output }));
    },
    'xstate.error.actor.sendThanks': (_env, event: EventObject) => {
      const { error } = event as EventObject & { error: { status: number; code: string; message: string } };
      return answered(() => json(error.status, { message: error.message, code: error.code }));
    },
  },
  states: {
    composing: async (_env, s) => {
      const region = await showsDraft(s);
      expect(within(region).getByRole('button', { name: 'Skicka tack' })).toBeEnabled();
      if (ctx(s).error) expect(await within(region).findByRole('alert')).toHaveTextContent('Skriv något i ditt tack.');
      else expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
    },
    sending: async (_env, s) => {
      const region = await form();
      await waitFor(() => expect(within(region).getByRole('button', { name: 'Skickar…' })).toBeDisabled());
      expect(within(region).getByLabelText('Ditt tack')).toHaveValue(ctx(s).message);
      // What the machine sends is what was typed (trimmed) and picked.
      await waitFor(() => expect(posted.at(-1)).toEqual({ message: ctx(s).message.trim(), emoji: ctx(s).emoji }));
    },
    sent: async (_env, s) => {
      const region = await screen.findByRole('region', { name: 'Ditt tack' }, { timeout: 5000 });
      expect(within(region).getByRole('status')).toHaveTextContent('Tack! Ditt tack är skickat till Anna.');
      expect(region).toHaveTextContent(ctx(s).thanks!.message);
      expect(within(region).getByRole('heading', { name: 'Ditt tack' })).toHaveFocus();
      expect(screen.queryByLabelText('Ditt tack', { selector: 'textarea' })).not.toBeInTheDocument();
    },
    failed: async (_env, s) => {
      const region = await showsDraft(s);
      expect(await within(region).findByRole('alert')).toHaveTextContent('Din text finns kvar');
      expect(within(region).getByRole('button', { name: 'Skicka tack' })).toBeEnabled();
    },
    refused: async () => {
      const region = await form();
      const alert = await within(region).findByRole('alert');
      expect(alert).toHaveTextContent('Du har redan tackat för den här greetien.');
      await waitFor(() => expect(alert).toHaveFocus());
      expect(within(region).queryByRole('button', { name: 'Skicka tack' })).not.toBeInTheDocument();
    },
  },
  cleanup: () => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  },
});
