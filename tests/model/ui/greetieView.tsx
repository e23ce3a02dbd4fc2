import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { REVEAL_DELAY_MS, type GreetieView, type GreetieViewContext } from '../../../machines/greetieView.ts';
import { installDomStubs, renderRoute, visitor } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The greetie view machine as a visitor meets it: the SMS link /greetie/view/{refId} opened on a
 * phone, not signed in. The server is fetch, stubbed at the edge: GET /greetie/byRef waits until
 * the path says how the server answers. The reveal's pause runs on fake timers that also follow
 * real time (Testing Library's waiting needs them to).
 */
type Pending = { url: string; answer: (r: Response) => void; done: boolean };
let pending: Pending[] = [];

const REF = 'AbCdEf123456';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers the open byRef call (the latest the page still waits for). */
const answer = async (make: () => Response) => {
  const open = () => [...pending].reverse().find((p) => !p.done && p.url.includes('/api/greetie/byRef'));
  await waitFor(() => expect(open(), 'a GET /api/greetie/byRef call').toBeDefined(), { timeout: 5000 });
  const p = open()!;
  p.done = true;
  p.answer(make());
};

/** The public view the server sends for the view the path expects: the recipient's name only, no codes. */
const publicAnswer = (v: GreetieView) => ({
  id: v.id,
  refId: REF,
  status: 'delivered',
  sender: { id: null, name: v.senderName },
  recipient: { name: v.recipientName },
  message: v.message,
  content: v.content,
  media: v.media,
  gifts: v.gifts.map((g) => ({ productName: g.productName, merchantName: g.merchantName, amount: g.amount })),
  vouchers: [],
  deliveredAt: v.deliveredAt,
  viewed: true,
  viewedAt: v.viewedAt,
});

const ctx = (s: AnyMachineSnapshot) => s.context as GreetieViewContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
const noPhoneNumber = () => expect(document.body.textContent ?? '').not.toMatch(/\+46|07\d[\s-]?\d/);

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input) => new Promise<Response>((resolve) => pending.push({ url: String(input), answer: resolve, done: false })),
    );
    renderRoute(`/greetie/view/${REF}`, { session: visitor });
  },
  events: {
    'xstate.done.actor.loadGreetie': (_env, event) => answer(() => json(200, publicAnswer((event as EventObject & { output: GreetieView }).output))),
    'xstate.error.actor.loadGreetie': (_env, event) => {
      const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
      return answer(() => json(e.status, { code: e.code, message: e.message }));
    },
    'xstate.after.revealDelay.greetieView.showing': () => {
      vi.advanceTimersByTime(REVEAL_DELAY_MS);
    },
    'user.retry': async () => {
      await user().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
  },
  states: {
    loading: async () => {
      expect(await screen.findByText('Hämtar greetien…', undefined, { timeout: 5000 })).toBeInTheDocument();
    },
    notFound: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Vi hittar inte den här greetien' }, { timeout: 5000 })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Till startsidan' })).toHaveAttribute('href', '/');
      expect(screen.queryByRole('button', { name: 'Försök igen' })).not.toBeInTheDocument();
    },
    error: async (_env, s) => {
      const alert = await screen.findByRole('alert', undefined, { timeout: 5000 });
      expect(alert).toHaveTextContent('Vi kunde inte visa greetien');
      expect(alert).toHaveTextContent(ctx(s).error?.message ?? '');
      expect(screen.getByRole('button', { name: 'Försök igen' })).toBeEnabled();
    },
    // Showing and viewed alike: the greetie from its sender, the photo first (the page's largest
    // paint, fetched first), the content drawn over it, the message, and never a phone number.
    showing: async (_env, s) => {
      const v = ctx(s).view!;
      expect(await screen.findByRole('heading', { level: 1, name: `En greetie från ${v.senderName}` }, { timeout: 5000 })).toBeInTheDocument();
      const photo = screen.getByRole('img', { name: 'Bilden i greetien' });
      expect(photo).toHaveAttribute('fetchpriority', 'high');
      expect(photo).toHaveAttribute('src', v.media?.url);
      expect(screen.getByRole('img', { name: 'Över bilden: 🎉' })).toBeInTheDocument();
      expect(screen.getByText(v.message)).toBeInTheDocument();
      noPhoneNumber();
    },
    viewed: async (_env, s) => {
      const v = ctx(s).view!;
      expect(await screen.findByRole('heading', { level: 1, name: `En greetie från ${v.senderName}` }, { timeout: 5000 })).toBeInTheDocument();
      // The gifts are revealed with their names, and the visitor is asked to sign in to receive them.
      expect(await screen.findByRole('heading', { level: 2, name: 'En gåva följer med' }, { timeout: 5000 })).toBeInTheDocument();
      for (const g of v.gifts) expect(screen.getByText(g.productName)).toBeInTheDocument();
      const signIn = screen.getByRole('link', { name: 'Logga in för att ta emot' });
      expect(signIn).toHaveAttribute('href', `/auth/jwt/login?returnTo=${encodeURIComponent(`/greetie/view/${REF}`)}`);
      expect(screen.queryByRole('link', { name: 'Lös in' })).not.toBeInTheDocument();
      noPhoneNumber();
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  },
});
