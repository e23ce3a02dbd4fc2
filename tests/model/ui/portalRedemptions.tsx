import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { PortalRedemptionsContext, PortalRedemptionsPage } from '../../../machines/portalRedemptions.ts';
import { installPortalServer, json, page, staff } from '../../client/portal/fakePortal.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { MERCHANT_ID } from '../hooks/portalRedemptions.ts';

/**
 * The redemptions on /portal/{merchantId} as a member of staff reads them (the page runs its own
 * machine with the real API call). The server is fetch, stubbed at the edge: the merchant and its
 * figures answer at once; each GET …/redemptions answers when the path says (with its Link header).
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0), { timeout: 5000 });
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const ctx = (s: AnyMachineSnapshot) => s.context as PortalRedemptionsContext;
const user = () => userEvent.setup();
const products = () => screen.queryAllByTestId('redemption-row').map((r) => r.querySelector('p')!.firstChild!.textContent);
const member = { ...staff, id: MERCHANT_ID };
const outputOf = (event: EventObject) => (event as EventObject & { output: PortalRedemptionsPage }).output;
const errorOf = (event: EventObject) => {
  const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
  return json(e.status, { code: e.code, message: e.message });
};
/** The period's last day as typed: the day before the machine's `to`. */
const lastDayOf = (to: string) => {
  const d = new Date(`${to}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
};

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    const server = installPortalServer([member]);
    server.redemptions = () => new Promise<Response>((resolve) => pending.push({ answer: resolve }));
    renderRoute(`/portal/${MERCHANT_ID}`, { session: signedIn({ id: 'u1', merchants: [member] }) });
  },
  events: {
    'user.period': async (_env, event: EventObject) => {
      const { period } = event as EventObject & { period: { from: string | null; to: string | null } };
      const from = await screen.findByLabelText('Från', undefined, { timeout: 5000 });
      const to = screen.getByLabelText('Till och med');
      await user().clear(from);
      if (period.from) await user().type(from, period.from);
      await user().clear(to);
      if (period.to) await user().type(to, lastDayOf(period.to));
      await user().click(screen.getByRole('button', { name: 'Visa' }));
    },
    'user.showMore': async () => {
      await user().click(await screen.findByRole('button', { name: 'Visa fler' }));
    },
    'user.retry': async () => {
      await user().click(await screen.findByRole('button', { name: 'Försök igen' }));
    },
    'xstate.done.actor.loadPage': (_env, event) => answered(() => page(outputOf(event).items, outputOf(event).nextCursor)),
    'xstate.error.actor.loadPage': (_env, event) => answered(() => errorOf(event)),
    'xstate.done.actor.loadMore': (_env, event) => answered(() => page(outputOf(event).items, outputOf(event).nextCursor)),
    'xstate.error.actor.loadMore': (_env, event) => answered(() => errorOf(event)),
  },
  states: {
    loading: async () => {
      expect(await screen.findByText('Hämtar inlösta presenter…', undefined, { timeout: 5000 })).toHaveAttribute('role', 'status');
    },
    showing: async (_env, s) => {
      const names = ctx(s).items.map((r) => r.productName);
      await waitFor(() => expect(products()).toEqual(names), { timeout: 5000 });
      if (names.length === 0) expect(screen.getByText('Inga inlösta presenter under perioden')).toBeInTheDocument();
      const more = screen.queryByRole('button', { name: 'Visa fler' });
      if (ctx(s).nextCursor) expect(more).toBeInTheDocument();
      else expect(more).not.toBeInTheDocument();
    },
    loadingMore: async (_env, s) => {
      expect(await screen.findByText('Hämtar fler…', undefined, { timeout: 5000 })).toHaveAttribute('role', 'status');
      expect(products()).toEqual(ctx(s).items.map((r) => r.productName));
    },
    failed: async (_env, s) => {
      const text = await screen.findByText(/De inlösta presenterna kunde inte hämtas/, undefined, { timeout: 5000 });
      expect(text).toHaveTextContent(ctx(s).error!.message);
      expect(within(text.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Försök igen' })).toBeEnabled();
    },
  },
  cleanup: () => {
    vi.restoreAllMocks();
  },
});
