import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { Greetie, GreetieGift } from '../../../contract/greetie.ts';
import type { Merchant, MerchantPage, Product } from '../../../contract/merchant.ts';
import { SAVE_DELAY_MS, type ComposeContext, type OpenedEvent } from '../../../machines/compose.ts';
import { POLL_MAX_MS } from '../../../machines/payment.ts';
import type { Payment } from '../../../contract/payment.ts';
import type { RecipientFields } from '../../../machines/compose/draft.ts';
import type { ChosenFile } from '../../../machines/compose/files.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { FakeXhr } from '../../client/greetie/fakeXhr.ts';
import { defineUi } from '../harness/types.ts';

/**
 * The compose machine as a person meets it on /greetie/new (the page runs its own machine with
 * the real API calls). The server is at the edge: fetch for the JSON calls and XMLHttpRequest for
 * the upload, both waiting until the path says how the server answers. The address the page
 * opens with is the path's `user.opened`. The save's pause runs on fake timers that also follow
 * real time (Testing Library's waiting needs them to), so a slow step may let the save start
 * before the path moves the clock: the page shows waiting and saving alike ('Sparar…'), and
 * both end in the same save.
 */
type Pending = { method: string; url: string; signal: AbortSignal | null; answer: (r: Response) => void; done: boolean };
let pending: Pending[] = [];

export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export type Matcher = { method: string; url: RegExp };
export const LOAD: Matcher = { method: 'GET', url: /\/api\/greetie\/[^/?]+(\?|$)/ };
export const CREATE: Matcher = { method: 'POST', url: /\/api\/greetie(\/createv2)?$/ };
export const SAVE: Matcher = { method: 'PATCH', url: /\/api\/greetie\/[^/?]+$/ };
const SEND: Matcher = { method: 'POST', url: /\/api\/greetie\/[^/]+\/send$/ };
const START_PAYMENT: Matcher = { method: 'POST', url: /\/api\/greetie\/[^/]+\/startpayment$/ };
const MERCHANTS: Matcher = { method: 'GET', url: /\/api\/merchant\/v2(\?|$)/ };
export const PRODUCTS: Matcher = { method: 'GET', url: /\/api\/merchant\/[^/]+\/products/ };
const SAVE_NAME: Matcher = { method: 'POST', url: /\/api\/mobileuser\/[^/]+$/ };
const READ_PAYMENT: Matcher = { method: 'GET', url: /\/api\/greetie\/[^/]+\/payment$/ };

/** Answers the latest call the page still waits for (an aborted one was left by a stopped actor). */
export const answer = async (m: Matcher, make: () => Response) => {
  const open = () => [...pending].reverse().find((p) => !p.done && !p.signal?.aborted && p.method === m.method && m.url.test(p.url));
  await waitFor(() => expect(open(), `a ${m.method} ${String(m.url)} call`).toBeDefined(), { timeout: 5000 });
  const p = open()!;
  p.done = true;
  p.answer(make());
};
export const errorOf = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message });
};
const outputOf = (event: EventObject) => (event as EventObject & { output: Greetie }).output;
const ctx = (s: AnyMachineSnapshot) => s.context as ComposeContext;
export const user = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime, applyAccept: false });

const merchantOf = (g: GreetieGift): Merchant => ({
  id: g.merchantId,
  name: g.merchantName,
  description: '',
  logoUrl: '/merchants/kanelbullen.svg',
  category: 'cafe',
  website: null,
  sources: [g.source],
  priceFrom: g.amount,
  address: null,
  openingHours: null,
});
const productOf = (g: GreetieGift): Product => ({
  id: g.productId,
  merchantId: g.merchantId,
  name: g.productName,
  description: '',
  imageUrl: '/merchants/kanelbullen.svg',
  source: g.source,
  price: g.amount,
  validDays: 365,
});

export const MEDIA_UPLOAD = /\/api\/greetie\/[^/]+\/media$/;
const OVERLAY_UPLOAD = /\/api\/greetie\/[^/]+\/mediaoverlay$/;
export const openUpload = async (url: RegExp) => {
  await waitFor(() => expect(FakeXhr.open(url), `an upload to ${String(url)}`).toBeDefined(), { timeout: 5000 });
  return FakeXhr.open(url)!;
};

/**
 * jsdom cannot draw: a 2D context that draws nothing (text measures 10 px a letter) and a canvas
 * that encodes to a small WebP, so the page's overlay actor gets as far as the upload.
 */
function stubCanvas() {
  const ctx = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : key === 'measureText' ? (t: string) => ({ width: 10 * t.length }) : () => undefined),
    set: (target, key, value) => ((target[key] = value), true),
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation((() => ctx) as never);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (callback: BlobCallback, type?: string) {
    callback(new Blob(['overlay'], { type: type ?? 'image/png' }));
  });
}

/** A browser File of the size and type the path chose. */
export const fileOf = (f: ChosenFile) => new File([new Uint8Array(f.size)], f.name, { type: f.type });

/** Types into a field as one change (a paste), so a field is one `user.changedRecipient`. */
export const fill = async (field: HTMLElement, value: string) => {
  if ((field as HTMLInputElement).value === value) return;
  await user().clear(field);
  if (value) {
    await user().click(field);
    await user().paste(value);
  }
};

/** The withdrawal consent's label (its start). */
const CONSENT = /^Jag vill att greetien levereras direkt och förstår att ångerrätten upphör/;

export const stepHeading = (name: string) => screen.findByRole('heading', { level: 2, name });
export const saveStatus = () => screen.getByRole('status', { name: (_n, el) => el.hasAttribute('data-save') });

/**
 * The compose page at `address` with the server at the edge (fetch and XMLHttpRequest wait for the
 * path's answers); `sender` signs in a person with that profile. The autosave's binding opens it too.
 */
export function renderCompose(address: string, sender?: { id: string; name: string | null }) {
  pending = [];
  FakeXhr.reset();
  installDomStubs({ viewport: 'mobile' });
  vi.useFakeTimers({ shouldAdvanceTime: true });
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  stubCanvas();
  if (!URL.createObjectURL) {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:local', revokeObjectURL: () => {} }));
  }
  vi.spyOn(globalThis, 'fetch').mockImplementation(
    (input, init) =>
      new Promise<Response>((resolve) =>
        pending.push({ method: init?.method ?? 'GET', url: String(input), signal: init?.signal ?? null, answer: resolve, done: false }),
      ),
  );
  router = renderRoute(address, { session: signedIn(sender ?? {}) }).router;
}

let router: ReturnType<typeof renderRoute>['router'] | null = null;
/** The page's address names the step it shows (/greetie/new/{step}). */
const showsAddress = (step: string) => waitFor(() => expect(router?.state.location.pathname).toBe(`/greetie/new/${step}`));

/** Ends what renderCompose started (fake timers, stubs). */
export function cleanupCompose() {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
}

export default defineUi({
  render(env) {
    // The address the person opens is what the path's first event says.
    const opened = env.path!.events.find((e) => e.type === 'user.opened') as OpenedEvent | undefined;
    const step = opened?.step ? `/${opened.step}` : '';
    const query = opened?.draftId
      ? `?draft=${opened.draftId}`
      : opened?.gift
        ? `?productId=${opened.gift.productId}${opened.gift.amount ? `&amount=${opened.gift.amount}` : ''}`
        : '';
    // A path that opens with a nameless sender signs in a person whose profile has no name.
    renderCompose(`/greetie/new${step}${query}`, opened?.sender ?? undefined);
  },
  events: {
    // The page says what its address asks for as it opens (render chose the address).
    'user.opened': async () => {
      await screen.findByRole('heading', { level: 1, name: 'Skapa greetie' }, { timeout: 5000 });
    },
    'xstate.done.actor.loadDraft': (_env, event) => answer(LOAD, () => json(200, outputOf(event))),
    'xstate.error.actor.loadDraft': (_env, event) => answer(LOAD, () => errorOf(event)),
    'xstate.done.actor.createDraftWithGift': (_env, event) => answer(CREATE, () => json(201, outputOf(event))),
    'xstate.error.actor.createDraftWithGift': (_env, event) => answer(CREATE, () => errorOf(event)),
    // The autosave child saves after the pause: the server answers its save.
    'save.saved': async (_env, event) => {
      vi.advanceTimersByTime(SAVE_DELAY_MS);
      await answer(SAVE, () => json(200, (event as EventObject & { greetie: Greetie }).greetie));
    },
    // The gifts' products, read from their merchant for the amounts' limits.
    'xstate.done.actor.loadGiftLimits': (_env, event) => answer(PRODUCTS, () => json(200, (event as EventObject & { output: Product[] }).output)),
    'xstate.error.actor.loadGiftLimits': (_env, event) => answer(PRODUCTS, () => errorOf(event)),
    // The payment compose handed over to: the person pays as they would (the payment machine's
    // own model walks all its ways); started, then read again until Swish says paid.
    'xstate.done.actor.payment': async (_env, event) => {
      const paid = (event as EventObject & { output: { payment: Payment } }).output.payment;
      await answer(START_PAYMENT, () => json(200, { ...paid, status: 'pending', appUrl: 'swish://paymentrequest?token=t', qrCode: '<svg/>', token: 't' }));
      await screen.findByText('Att betala: 149 kr', undefined, { timeout: 5000 });
      vi.advanceTimersByTime(POLL_MAX_MS);
      await answer(READ_PAYMENT, () => json(200, paid));
    },
    // The sender's name, saved to the profile from the recipient step.
    'user.changedSenderName': async (_env, event) => {
      await fill(screen.getByRole('textbox', { name: 'Ditt namn' }), (event as EventObject & { name: string }).name);
    },
    'xstate.done.actor.saveSenderName': (_env, event) =>
      answer(SAVE_NAME, () => json(200, { ...(event as EventObject & { output: object }).output, allowMarketing: false, createdAt: '2026-11-01T08:00:00.000Z' })),
    'xstate.error.actor.saveSenderName': (_env, event) => answer(SAVE_NAME, () => errorOf(event)),
    'xstate.done.actor.sendGreetie': (_env, event) => answer(SEND, () => json(200, outputOf(event))),
    'xstate.error.actor.sendGreetie': (_env, event) => answer(SEND, () => errorOf(event)),
    // The upload child (its own binding: tests/model/ui/upload.tsx) as compose hears it: a photo
    // goes up, the draft is created for it, the server takes it, or the person cancels.
    'upload.started': async () => {
      await user().upload(screen.getByLabelText(/Välj från telefonen|Byt bild eller video/), fileOf({ name: 'foto.jpg', type: 'image/jpeg', size: 120_000 }));
    },
    'upload.created': (_env, event) => answer(CREATE, () => json(201, (event as EventObject & { greetie: Greetie }).greetie)),
    'upload.done': async (_env, event) => {
      (await openUpload(MEDIA_UPLOAD)).answer(200, (event as EventObject & { greetie: Greetie }).greetie);
    },
    'upload.stopped': async () => {
      await user().click(screen.getByRole('button', { name: 'Avbryt uppladdningen' }));
    },
    // The content's flattened image (drawn on the stubbed canvas) goes up after a save.
    'xstate.done.actor.uploadOverlay': async (_env, event) => {
      (await openUpload(OVERLAY_UPLOAD)).answer(200, outputOf(event));
    },
    'xstate.error.actor.uploadOverlay': async (_env, event) => {
      const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
      (await openUpload(OVERLAY_UPLOAD)).answer(e.status, { code: e.code, message: e.message });
    },
    'user.next': async () => {
      await user().click(screen.getByRole('button', { name: 'Nästa' }));
    },
    // The browser's back or forward: the address changes to the step's, the draft's id kept.
    'step.requested': async (_env, event) => {
      const { step } = event as EventObject & { step: string };
      await act(() => router!.navigate(`/greetie/new/${step}${router!.state.location.search}`));
    },
    'user.back': async () => {
      // From the payment (handingOver): the payment panel offers the way back once its start has
      // ended (here refused: sold out), as a person meets it.
      if (screen.queryByRole('heading', { level: 2, name: 'Betala med Swish' })) {
        await answer(START_PAYMENT, () => json(409, { code: 'GIFT_CODE_POOL_EMPTY', message: 'En av gåvorna är slut just nu. Välj en annan gåva.' }));
        await user().click(await screen.findByRole('button', { name: 'Tillbaka till granskningen' }));
        return;
      }
      await user().click(screen.getByRole('button', { name: 'Tillbaka' }));
    },
    // The content: the person adds a text with the editor.
    'user.changedContent': async (_env, event) => {
      const content = (event as EventObject & { content: Array<{ type: string; value: string }> }).content;
      const text = content.find((c) => c.type === 'text');
      if (!text) throw new Error('the compose binding adds texts only: give user.changedContent a text element');
      await user().click(screen.getByRole('button', { name: 'Text' }));
      await user().click(screen.getByRole('textbox', { name: 'Text' }));
      await user().paste(text.value);
      await user().click(screen.getByRole('button', { name: 'Lägg till text' }));
    },
    // The gifts: the person picks the merchant, then the product, from the catalogue.
    'user.changedGifts': async (_env, event) => {
      const gifts = (event as EventObject & { gifts: GreetieGift[] }).gifts;
      for (const g of gifts) {
        const list: MerchantPage = { items: [merchantOf(g)], nextCursor: null };
        await answer(MERCHANTS, () => json(200, list));
        await user().click(await screen.findByRole('button', { name: new RegExp(g.merchantName) }));
        await answer(PRODUCTS, () => json(200, [productOf(g)]));
        await user().click(await screen.findByRole('button', { name: `Lägg till ${g.productName}` }));
      }
    },
    'user.changedRecipient': async (_env, event) => {
      const e = event as EventObject & { recipient: RecipientFields; message: string };
      await fill(screen.getByRole('textbox', { name: 'Mobilnummer' }), e.recipient.mobileNumber);
      await fill(screen.getByRole('textbox', { name: 'Namn (valfritt)' }), e.recipient.name);
      await fill(screen.getByRole('textbox', { name: 'Meddelande' }), e.message);
    },
    'user.retrySave': async () => {
      await user().click(screen.getByRole('button', { name: /^(Spara igen|Försök spara igen)$/ }));
    },
    'user.send': async () => {
      await user().click(screen.getByRole('button', { name: /^(Skicka|Betala med Swish)$/ }));
    },
    // The withdrawal consent at review: the person ticks (or unticks) the box.
    'user.consented': async (_env, event) => {
      const consented = (event as EventObject & { consented: boolean }).consented;
      const box = screen.getByRole('checkbox', { name: CONSENT });
      if ((box as HTMLInputElement).checked !== consented) await user().click(box);
    },
    'user.retry': async () => {
      await user().click(screen.getByRole('button', { name: 'Försök igen' }));
    },
    'user.withoutGift': async () => {
      await user().click(screen.getByRole('button', { name: 'Fortsätt utan presenten' }));
    },
  },
  states: {
    opening: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Skapa greetie' }, { timeout: 5000 })).toBeInTheDocument();
    },
    loading: async () => {
      expect(await screen.findByText('Hämtar din greetie…')).toBeInTheDocument();
    },
    creatingWithGift: async () => {
      expect(await screen.findByText('Hämtar din greetie…')).toBeInTheDocument();
    },
    loadFailed: async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Din greetie kunde inte hämtas');
      expect(alert).toHaveTextContent('Något gick fel hos oss');
    },
    createFailed: async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Greetien kunde inte skapas med presenten');
      expect(within(alert).getByRole('button', { name: 'Försök igen' })).toBeEnabled();
      expect(within(alert).getByRole('button', { name: 'Fortsätt utan presenten' })).toBeEnabled();
    },
    notFound: async () => {
      expect(await stepHeading('Greetien finns inte')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Mina greeties' })).toHaveAttribute('href', '/greetie/list');
    },
    notEditable: async (_env, s) => {
      expect(await stepHeading('Greetien är redan skickad')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Visa greetien' })).toHaveAttribute('href', `/greetie/details/${ctx(s).draftId}`);
    },
    // The steps: the stepper marks the one shown.
    'editing.steps.media': async () => {
      expect(await stepHeading('Välj en bild eller video')).toBeInTheDocument();
      await showsAddress('media');
      expect(screen.getByRole('listitem', { current: 'step' })).toHaveTextContent('Bild');
    },
    // The media step's own parts (file, progress, refusal, cancel) are the upload child's binding's.
    'editing.steps.media.ready': (_env, s) => {
      expect(screen.getByLabelText(/Välj från telefonen|Byt bild eller video/)).toHaveAttribute('type', 'file');
      if (ctx(s).draft.media) expect(screen.getByRole('img', { name: 'Din bild' })).toHaveAttribute('src', ctx(s).draft.media!.url);
      else expect(screen.getByText('Ingen bild eller video än')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Nästa' })).toHaveProperty('disabled', !ctx(s).draft.media);
    },
    'editing.steps.media.uploading': async () => {
      expect(await screen.findByRole('button', { name: 'Avbryt uppladdningen' })).toBeEnabled();
      expect(screen.getByRole('button', { name: 'Nästa' })).toBeDisabled();
    },
    'editing.steps.content': async (_env, s) => {
      expect(await stepHeading('Klä din greetie')).toBeInTheDocument();
      await showsAddress('content');
      for (const c of ctx(s).draft.content) if (c.type === 'text') expect(screen.getAllByRole('button', { name: `Text: ${c.value}` }).length).toBeGreaterThan(0);
    },
    'editing.steps.gifts': async (_env, s) => {
      expect(await stepHeading('Lägg till presenter')).toBeInTheDocument();
      await showsAddress('gifts');
      const gifts = ctx(s).draft.gifts;
      if (gifts.length === 0) expect(screen.getByText('Inga presenter valda. Det går bra att skicka utan.')).toBeInTheDocument();
      else for (const g of gifts) expect(within(screen.getByRole('list', { name: 'Valda presenter' })).getAllByText(g.productName).length).toBeGreaterThan(0);
      // The running total in kr (the tests under tests/client/greetie/ check its sums).
      expect(screen.getByText(/^Summa:/)).toHaveTextContent(gifts.length === 0 ? /^Summa: 0\skr$/ : /^Summa: [1-9][\d\s]*(,\d\d)?\skr$/);
    },
    'editing.steps.recipient': async (_env, s) => {
      expect(await stepHeading('Vem ska få den?')).toBeInTheDocument();
      await showsAddress('recipient');
      // The path's states stand for every draft alike in what the page shows: a number, or none.
      const field = screen.getByRole('textbox', { name: 'Mobilnummer' });
      if (ctx(s).draft.recipient.mobileNumber) expect(field).not.toHaveValue('');
      else expect(field).toHaveValue('');
    },
    'editing.steps.review': async (_env, s) => {
      expect(await stepHeading('Granska din greetie')).toBeInTheDocument();
      await showsAddress('review');
      const label = ctx(s).draft.gifts.length > 0 ? 'Betala med Swish' : 'Skicka';
      // Sending waits until everything is saved.
      const settled = ctx(s).saved && !s.matches({ editing: { overlay: 'uploading' } });
      expect(screen.getByRole('button', { name: label })).toHaveProperty('disabled', !settled);
      // With gifts, the withdrawal consent: a real checkbox, ticked as the person left it; paying
      // without it says so beside it and moves focus there.
      const box = screen.queryByRole('checkbox', { name: CONSENT });
      if (ctx(s).draft.gifts.length === 0) {
        expect(box).not.toBeInTheDocument();
        return;
      }
      expect(box).toBeInTheDocument();
      expect(box).toHaveProperty('checked', ctx(s).consent);
      expect(screen.getByRole('link', { name: 'Läs om ångerrätten i köpvillkoren' })).toHaveAttribute('href', '/villkor#angerratt');
      if (ctx(s).consentMissing) {
        expect(box).toHaveAttribute('aria-invalid', 'true');
        expect(box).toHaveAccessibleDescription(/Kryssa i rutan om leverans och ångerrätt för att kunna betala/);
        expect(box).toHaveFocus();
      } else {
        expect(box).not.toHaveAttribute('aria-invalid');
      }
    },
    // A value voucher's amount can be changed once its product's limits are known…
    'editing.giftLimits.known': async (env, s) => {
      // (The path's snapshot stands for drafts alike in what the chart tells apart: the path says whether the voucher's limits were read.)
      const read = env.path!.events.some((e) => e.type === 'xstate.done.actor.loadGiftLimits');
      if (!read || !s.matches({ editing: { steps: 'gifts' } })) return;
      expect((await screen.findAllByRole('textbox', { name: 'Belopp i kr' })).length).toBeGreaterThan(0);
    },
    // …and is shown as it is when they cannot be read (no error for the person).
    'editing.giftLimits.unknown': () => {
      expect(screen.queryByRole('textbox', { name: 'Belopp i kr' })).not.toBeInTheDocument();
    },
    // The overlay is the server's business: the person sees nothing of it, and its failure
    // never shows as one of theirs.
    'editing.overlay.failed': () => {
      expect(screen.queryByText('Ändringarna kunde inte sparas')).not.toBeInTheDocument();
    },
    handingOver: async () => {
      // The review hands over to the payment panel, which starts the payment.
      expect(await stepHeading('Betala med Swish')).toBeInTheDocument();
      await showsAddress('payment');
    },
    // Already paid (a step's address reloaded): its own page, with the receipt, replaces the address.
    alreadyPaid: async (_env, s) => {
      await waitFor(() => expect(router?.state.location.pathname).toBe(`/greetie/details/${ctx(s).draftId}`), { timeout: 5000 });
      expect(router?.state.historyAction).toBe('REPLACE');
    },
    // The receipt; the steps are behind, so whatever step address the browser reaches (back,
    // forward), the receipt stays and its address is put back (decision 131).
    paid: async () => {
      expect(await screen.findByRole('heading', { level: 2, name: 'Tack! Betalningen är klar' }, { timeout: 5000 })).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Din greetie' })).toBeInTheDocument();
      await showsAddress('payment');
    },
    sending: async () => {
      expect(await screen.findByRole('button', { name: 'Skickar…' })).toBeDisabled();
    },
    sendFailed: async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Greetien kunde inte skickas');
      expect(screen.getByRole('button', { name: 'Försök igen' })).toBeEnabled();
    },
    sent: async (_env, s) => {
      expect(await stepHeading('Din greetie är skickad!')).toBeInTheDocument();
      await showsAddress('review');
      expect(screen.getByRole('heading', { level: 1, name: 'Din greetie' })).toBeInTheDocument();
      expect(screen.getByText(ctx(s).draft.deliverAt ? /vid den tid du valde/ : /med länken nu/)).toBeInTheDocument();
    },
  },
  cleanup: cleanupCompose,
});
