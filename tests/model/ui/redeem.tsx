import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import { MERCHANT_CODE_PATTERN } from '../../../contract/merchant.ts';
import type { Failure } from '../../../contract/errors.ts';
import type { RedeemContext } from '../../../machines/redeem.ts';
import type { ModelPath } from '../harness/model.ts';
import { instore } from '../../fixtures/vouchers.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * The redeem machine as the till staff meet it: the till screen /redeem/voucher/{id} in the real
 * app. The server is fetch, stubbed at the edge: the voucher is there at once; a redeem waits
 * until the path says how the server answers (a 429 with Retry-After, as the server sends it).
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const answer = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0), { timeout: 5000 });
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const ctx = (s: AnyMachineSnapshot) => s.context as RedeemContext;
const user = () => userEvent.setup();

/** The till's words for each refusal, by the Failure's code. */
const messages: Partial<Record<Failure['code'], RegExp>> = {
  MERCHANT_CODE_REQUIRED: /^Skriv handlarkoden\.$/,
  MERCHANT_CODE_MALFORMED: /^En handlarkod har 4–16 bokstäver och siffror\.$/,
  MERCHANT_CODE_WRONG: /^Fel handlarkod\. Kontrollera koden och försök igen\.$/,
  VOUCHER_ALREADY_REDEEMED: /^Gåvan är redan inlöst\.$/,
  VOUCHER_EXPIRED: /^Gåvan har gått ut och kan inte lösas in\.$/,
  VOUCHER_LOCKED: /^För många felaktiga koder\. Försök igen kl\. \d\d:\d\d\.$/,
};

/** The code the path types at its first 'Lös in' (the phone's own check decides what follows). */
const firstCode = (path: ModelPath) => (path.events.find((e) => e.type === 'user.submit' && (e as EventObject & { merchantCode: string }).merchantCode.trim()) as (EventObject & { merchantCode: string }) | undefined)?.merchantCode;

export default defineUi({
  skip(path) {
    // The page runs the machine's own check of the code, so what follows a code is the check's answer.
    const types = path.events.map((e) => e.type);
    const code = firstCode(path);
    const malformed = code !== undefined && !new RegExp(MERCHANT_CODE_PATTERN).test(code.trim());
    if (types.includes('xstate.error.actor.checkCode') && !malformed) return 'the page checks a well-formed code and sends it: its check never refuses that code';
    if (types.includes('xstate.done.actor.checkCode') && malformed) return 'the page refuses that code itself: its check never passes it';
    return undefined;
  },
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      if ((init?.method ?? 'GET') === 'GET' && path === `/api/voucher/${instore.id}`) return Promise.resolve(json(200, instore));
      if (path === '/api/voucher/redeem') return new Promise<Response>((resolve) => pending.push({ answer: resolve }));
      return Promise.resolve(json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' }));
    });
    renderRoute(`/redeem/voucher/${instore.id}`, { session: signedIn({ id: 'u1' }) });
  },
  events: {
    'user.submit': async (_env, event: EventObject) => {
      const code = (event as EventObject & { merchantCode: string }).merchantCode;
      const field = await screen.findByRole('textbox', { name: 'Handlarkod' }, { timeout: 5000 });
      await user().clear(field);
      if (code) await user().type(field, code);
      await user().click(screen.getByRole('button', { name: 'Lös in' }));
    },
    // The phone's own check settles at once on the page: nothing to do but let it.
    'xstate.done.actor.checkCode': () => {},
    'xstate.error.actor.checkCode': () => {},
    'xstate.done.actor.redeemVoucher': (_env, event) => answer(() => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.redeemVoucher': (_env, event) => {
      const e = (event as EventObject & { error: { status: number; code: string; message: string; retryAt?: string } }).error;
      return answer(() => json(e.status, { code: e.code, message: e.message }, e.status === 429 ? { 'retry-after': '600' } : {}));
    },
  },
  states: {
    idle: async (_env, s) => {
      const button = await screen.findByRole('button', { name: 'Lös in' }, { timeout: 5000 });
      expect(button).toBeEnabled();
      const error = ctx(s).error;
      if (error) {
        const alert = await screen.findByRole('alert');
        expect(alert.textContent).toMatch(messages[error.code]!);
        expect(screen.getByRole('textbox', { name: 'Handlarkod' })).toHaveAttribute('aria-invalid', 'true');
      } else {
        expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      }
    },
    // The check settles within the same tick: the staff see the button busy, or the code refused.
    validating: async () => {
      await waitFor(() => {
        const busy = screen.queryByRole('button', { name: 'Löser in…' });
        const refused = screen.queryByRole('alert');
        expect(busy?.hasAttribute('disabled') || refused?.textContent === 'En handlarkod har 4–16 bokstäver och siffror.').toBe(true);
      });
    },
    submitting: async () => {
      expect(await screen.findByRole('button', { name: 'Löser in…' })).toBeDisabled();
    },
    redeemed: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: 'Inlöst' })).toBeInTheDocument();
      expect(screen.getByTestId('live-clock').textContent).toMatch(/^\d\d:\d\d:\d\d$/);
      expect(screen.queryByRole('textbox', { name: 'Handlarkod' })).not.toBeInTheDocument();
    },
  },
  cleanup: () => vi.restoreAllMocks(),
});
