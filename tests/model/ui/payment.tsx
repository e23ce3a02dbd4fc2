import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { useParams, type RouteObject } from 'react-router-dom';
import { POLL_MAX_MS, type PaymentContext } from '../../../machines/payment.ts';
import { PaymentPanel } from '../../../src/pages/greetie/payment/PaymentPanel.tsx';
import { STREAM_RETRY_MS } from '../../../src/pages/greetie/payment/implementations.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { GREETIE_ID } from '../hooks/payment.ts';

/**
 * The payment machine as a person meets it: the payment panel the review step hands over to
 * ('start', on /greetie/new) and the details page resumes ('resume', /greetie/details/{id}),
 * mounted on its own route with the real server calls. The route opens when the path's
 * `user.opened` says which. The server is fetch, stubbed at the edge: each call waits until the
 * path says how the server answers. The wait between reads runs on fake timers.
 */
type Pending = { method: string; url: string; answer: (r: Response) => void; done: boolean };
let pending: Pending[] = [];
let router: ReturnType<typeof renderRoute>['router'] | null = null;
const backs = vi.fn();

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
type Matcher = { method: string; url: RegExp };
const START: Matcher = { method: 'POST', url: /\/api\/greetie\/[^/]+\/startpayment$/ };
const READ: Matcher = { method: 'GET', url: /\/api\/greetie\/[^/]+\/payment$/ };
const EVENTS: Matcher = { method: 'GET', url: /\/api\/greetie\/[^/]+\/payment\/events$/ };

/** The server's side of the page's payment stream: opened when the path first says something on it. */
let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
const sse = (text: string) => stream!.enqueue(new TextEncoder().encode(text));
const openStream = async () => {
  if (stream) return;
  await answer(EVENTS, () => {
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        stream = c;
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
};

const answer = async (m: Matcher, make: () => Response) => {
  const open = () => [...pending].reverse().find((p) => !p.done && p.method === m.method && m.url.test(p.url));
  await waitFor(() => expect(open(), `a ${m.method} ${String(m.url)} call`).toBeDefined(), { timeout: 5000 });
  const p = open()!;
  p.done = true;
  p.answer(make());
};
const outputOf = (event: EventObject) => (event as EventObject & { output: unknown }).output;
const errorOf = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message });
};
const ctx = (s: AnyMachineSnapshot) => s.context as PaymentContext;
const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
/** The withdrawal consent's label (its start). */
const CONSENT = /^Jag vill att greetien levereras direkt och förstår att ångerrätten upphör/;

/** Trying again needs the consent: the box is there until it is ticked; trying without it says so there, with focus. */
const consentShown = (s: AnyMachineSnapshot) => {
  const c = ctx(s);
  const box = screen.queryByRole('checkbox', { name: CONSENT });
  // The model's payment is the details page's: no consent handed over, the box always there.
  expect(c.asksConsent).toBe(true);
  expect(box).toBeInTheDocument();
  expect(box).toHaveProperty('checked', c.consented);
  if (c.consentMissing) {
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription(/Kryssa i rutan om leverans och ångerrätt för att kunna betala/);
    expect(box).toHaveFocus();
  }
};

const panelHeading = (name: string) => screen.findByRole('heading', { level: 2, name }, { timeout: 5000 });

function PaymentRoute() {
  const { mode } = useParams();
  return <PaymentPanel greetieId={GREETIE_ID} mode={mode === 'resume' ? 'resume' : 'start'} onBack={backs} />;
}
const routes: RouteObject[] = [
  { path: '/', element: <p>Granska din greetie</p> },
  { path: '/pay/:mode', element: <PaymentRoute /> },
];

const outcome = (title: string, text: string) => async (_env: unknown, s: AnyMachineSnapshot) => {
  const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
  expect(within(alert).getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
  expect(alert).toHaveTextContent(text);
  expect(within(alert).getByRole('button', { name: 'Försök igen' })).toBeEnabled();
  consentShown(s);
  // The way back to the review is the page's.
  backs.mockClear();
  await user().click(within(alert).getByRole('button', { name: 'Tillbaka till granskningen' }));
  expect(backs).toHaveBeenCalledOnce();
};

export default defineUi({
  render() {
    pending = [];
    stream = null;
    backs.mockReset();
    installDomStubs({ viewport: 'desktop' });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (input, init) => new Promise<Response>((resolve) => pending.push({ method: init?.method ?? 'GET', url: String(input), answer: resolve, done: false })),
    );
    router = renderRoute('/', { routes, session: signedIn({ id: 'u1', name: 'Anna Andersson' }) }).router;
  },
  events: {
    'user.opened': async (_env, event) => {
      const mode = (event as EventObject & { mode: string }).mode;
      await act(() => router!.navigate(`/pay/${mode}`));
    },
    'user.showQr': async () => {
      await user().click(screen.getByRole('button', { name: 'Betala på ett annat sätt' }));
    },
    'user.showAppButton': async () => {
      await user().click(screen.getByRole('button', { name: 'Betala på ett annat sätt' }));
    },
    'user.openedSwish': async () => {
      const link = screen.getByRole('link', { name: 'Öppna Swish' });
      // jsdom cannot open the Swish app: the link's default is stopped before it navigates.
      document.addEventListener('click', (e) => e.preventDefault(), { once: true, capture: true });
      await user().click(link);
    },
    'user.submitPayer': async (_env, event) => {
      const number = (event as EventObject & { payerAlias: string }).payerAlias;
      const field = screen.getByRole('textbox', { name: 'Ditt Swish-nummer' });
      await user().clear(field);
      await user().type(field, number);
      await user().click(screen.getByRole('button', { name: 'Skicka till min Swish' }));
    },
    'user.changePayment': async () => {
      await user().click(screen.getByRole('button', { name: 'Betala på ett annat sätt' }));
    },
    'user.returned': () => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      act(() => {
        document.dispatchEvent(new Event('visibilitychange'));
      });
    },
    'user.retry': async () => {
      await user().click(await screen.findByRole('button', { name: 'Försök igen' }));
    },
    // The withdrawal consent, asked on the details page before a new payment.
    'user.consented': async (_env, event) => {
      const consented = (event as EventObject & { consented: boolean }).consented;
      const box = await screen.findByRole('checkbox', { name: CONSENT });
      if ((box as HTMLInputElement).checked !== consented) await user().click(box);
    },
    // The server tells of the payment on the page's stream (opened when the payment opened).
    'stream.payment': async (_env, event) => {
      await openStream();
      const p = (event as EventObject & { payment: unknown }).payment;
      await act(async () => {
        sse(`event: payment\ndata: ${JSON.stringify(p)}\n\n`);
        await Promise.resolve();
      });
    },
    // The stream breaks; the page opens it again after a moment and reads the payment at once.
    'stream.reconnected': async () => {
      await openStream();
      act(() => stream!.close());
      stream = null;
      await act(async () => {
        await vi.advanceTimersByTimeAsync(STREAM_RETRY_MS);
      });
      await waitFor(() => expect(pending.filter((p) => !p.done && EVENTS.url.test(p.url))).toHaveLength(1));
    },
    'xstate.after.pollDelay.payment.open.poll.waiting': () => {
      act(() => {
        vi.advanceTimersByTime(POLL_MAX_MS);
      });
    },
    'xstate.done.actor.startPayment': (_env, event) => answer(START, () => json(200, outputOf(event))),
    'xstate.error.actor.startPayment': (_env, event) => answer(START, () => errorOf(event)),
    'xstate.done.actor.readPayment': (_env, event) => answer(READ, () => json(200, outputOf(event))),
    'xstate.error.actor.readPayment': (_env, event) => answer(READ, () => errorOf(event)),
    'xstate.done.actor.pollPayment': (_env, event) => answer(READ, () => json(200, outputOf(event))),
    'xstate.error.actor.pollPayment': (_env, event) => answer(READ, () => errorOf(event)),
  },
  states: {
    opening: () => {
      expect(screen.getByText('Granska din greetie')).toBeInTheDocument();
      expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    },
    starting: async () => {
      expect(await screen.findByText('Vi förbereder betalningen…', undefined, { timeout: 5000 })).toBeInTheDocument();
    },
    checking: async () => {
      expect(await screen.findByText('Vi hämtar betalningen…', undefined, { timeout: 5000 })).toBeInTheDocument();
    },
    'open.view.awaitingPayer': async (_env, s) => {
      const c = ctx(s);
      await panelHeading('Betala med Swish');
      expect(await screen.findByText('Att betala: 149 kr')).toBeInTheDocument();
      if (c.device === 'phone') {
        const link = await screen.findByRole('link', { name: 'Öppna Swish' });
        expect(link).toHaveAttribute('href', c.payment?.appUrl);
        expect(screen.queryByRole('textbox', { name: 'Ditt Swish-nummer' })).not.toBeInTheDocument();
      } else {
        // The QR code is the server's SVG as an image: nothing in it can run.
        const qr = await screen.findByRole('img', { name: 'QR-kod för betalningen i Swish' });
        expect(qr.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(c.payment!.qrCode!)}`);
        const field = screen.getByRole('textbox', { name: 'Ditt Swish-nummer' });
        if (c.payerInvalid) {
          expect(await screen.findByRole('alert')).toHaveTextContent('Skriv ett svenskt mobilnummer');
          expect(field).toHaveAttribute('aria-invalid', 'true');
        } else {
          expect(screen.queryByRole('alert')).not.toBeInTheDocument();
        }
      }
      if (c.readFailed) expect(await screen.findByText(/tappat kontakten/)).toBeInTheDocument();
      // The Swish screen: 'Avbryt' always there, one label for the other way to pay; on a phone
      // 'Öppna Swish' (with Swish's mark) comes first.
      expect(screen.getByRole('button', { name: 'Avbryt' })).toBeEnabled();
      expect(screen.getAllByRole('button', { name: 'Betala på ett annat sätt' })).toHaveLength(1);
      if (c.device === 'phone') {
        const open = screen.getByRole('link', { name: 'Öppna Swish' });
        expect(open.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
        expect(open.compareDocumentPosition(screen.getByRole('button', { name: 'Betala på ett annat sätt' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      } else if (!c.payerAlias && !c.payerInvalid) {
        // The signed-in number, prefilled (the model's session has +46701234567 unless told otherwise).
        expect(screen.getByRole('textbox', { name: 'Ditt Swish-nummer' })).not.toHaveValue('');
      }
    },
    'open.view.readingResult': async (_env, s) => {
      const c = ctx(s);
      expect(await screen.findByText('Väntar på svar från Swish…', undefined, { timeout: 5000 })).toBeInTheDocument();
      if (c.payment?.payerAlias) expect(screen.getByText(/Öppna Swish på telefonen med nummer \+46701234567/)).toBeInTheDocument();
      else expect(screen.getByText(/Godkänn betalningen i Swish/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Betala på ett annat sätt' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Avbryt' })).toBeEnabled();
      if (c.readFailed) expect(await screen.findByText(/tappat kontakten/)).toBeInTheDocument();
    },
    'open.poll': () => {},
    ended: () => {},
    paid: async () => {
      expect(await panelHeading('Tack! Betalningen är klar')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    'ended.declined': outcome('Betalningen nekades', 'Betalningen nekades i Swish.'),
    'ended.cancelled': outcome('Betalningen avbröts', 'Betalningen avbröts i Swish.'),
    'ended.expired': outcome('Tiden gick ut', 'Betalningen godkändes inte i tid i Swish.'),
    'ended.failed': outcome('Något gick fel', 'Något gick fel i Swish'),
    'ended.startFailed': async (_env, s) => {
      const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
      expect(within(alert).getByRole('heading', { level: 2, name: 'Betalningen kunde inte startas' })).toBeInTheDocument();
      expect(alert).toHaveTextContent(ctx(s).error!.message);
      expect(within(alert).getByRole('button', { name: 'Tillbaka till granskningen' })).toBeEnabled();
      consentShown(s);
    },
    checkFailed: async (_env, s) => {
      const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
      expect(within(alert).getByRole('heading', { level: 2, name: 'Vi kunde inte hämta betalningen' })).toBeInTheDocument();
      expect(alert).toHaveTextContent(ctx(s).error!.message);
    },
    none: async () => {
      await waitFor(() => expect(screen.queryByText('Vi hämtar betalningen…')).not.toBeInTheDocument(), { timeout: 5000 });
      expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    },
  },
  cleanup: () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    router = null;
  },
});
