import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { DonateContext } from '../../../machines/donate.ts';
import { charities, donatedToSea, products, sea } from '../../fixtures/charities.ts';
import { instore } from '../../fixtures/vouchers.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';

/**
 * "Skänk värdet i stället" as the recipient meets it on the voucher's page (/voucher/{id}; the
 * page runs its own machine with the real calls). The server is fetch, stubbed at the edge: the
 * voucher, the new Charity voucher and each charity's products answer at once; the list of
 * charities and the donation answer when the path says.
 */
type Pending = { donate: boolean; answer: (r: Response) => void };
let pending: Pending[] = [];

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const answered = async (donate: boolean, make: () => Response) => {
  await waitFor(() => expect(pending.some((p) => p.donate === donate)).toBe(true));
  const now = pending.filter((p) => p.donate === donate);
  pending = pending.filter((p) => p.donate !== donate);
  for (const p of now) p.answer(make());
};
const ctx = (s: AnyMachineSnapshot) => s.context as DonateContext;
const user = () => userEvent.setup();
const OFFER = 'Skänk värdet i stället';
const CONFIRM = /^Skänk 149\skr$/;
const region = () => screen.getByRole('region', { name: OFFER });

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const url = new URL(String(input), 'http://app').pathname;
      const method = init?.method ?? 'GET';
      if (method === 'POST' && url === `/api/voucher/${instore.id}/donate`) return new Promise<Response>((resolve) => pending.push({ donate: true, answer: resolve }));
      if (url === '/api/merchant/v2') return new Promise<Response>((resolve) => pending.push({ donate: false, answer: resolve }));
      const owner = /^\/api\/merchant\/([^/]+)\/products$/.exec(url);
      if (owner && products[owner[1]!]) return Promise.resolve(json(200, products[owner[1]!]));
      if (url === `/api/voucher/${instore.id}`) return Promise.resolve(json(200, instore));
      if (url === `/api/voucher/${donatedToSea.id}`) return Promise.resolve(json(200, donatedToSea));
      return Promise.resolve(json(404, { message: 'Finns inte.', code: 'NOT_FOUND' }));
    });
    renderRoute(`/voucher/${instore.id}`, { session: signedIn({ id: 'u1', name: 'Anna Andersson' }) });
  },
  events: {
    'user.start': async () => {
      await user().click(await screen.findByRole('button', { name: OFFER }, { timeout: 5000 }));
    },
    'user.retry': async () => {
      await user().click(within(region()).getByRole('button', { name: 'Försök igen' }));
    },
    'user.choose': async (_env, event: EventObject) => {
      const { productId } = event as EventObject & { productId: string };
      const radio = within(region()).getAllByRole('radio').find((r) => (r as HTMLInputElement).value === productId)!;
      await user().click(radio);
      await user().click(within(region()).getByRole('button', { name: 'Fortsätt' }));
    },
    'user.confirm': async () => {
      await user().click(within(await screen.findByRole('dialog')).getByRole('button', { name: CONFIRM }));
    },
    'user.back': async () => {
      await user().click(within(await screen.findByRole('dialog')).getByRole('button', { name: /^(Tillbaka|Välj en annan)$/ }));
    },
    'user.close': async () => {
      const dialog = screen.queryByRole('dialog');
      if (!dialog) return void (await user().click(within(region()).getByRole('button', { name: /^(Avbryt|Stäng)$/ })));
      const close = within(dialog).queryByRole('button', { name: 'Stäng' });
      if (close) await user().click(close);
      // The confirmation has no close button: Escape closes it, as any dialog.
      else await user().keyboard('{Escape}');
    },
    'xstate.done.actor.loadCharities': () => answered(false, () => json(200, { items: charities, nextCursor: null })),
    'xstate.error.actor.loadCharities': () => answered(false, () => json(503, { message: 'Databasen svarar inte.', code: 'DB_UNAVAILABLE' })),
    'xstate.done.actor.donateVoucher': () => answered(true, () => json(200, donatedToSea)),
    'xstate.error.actor.donateVoucher': () =>
      answered(true, () => json(400, { message: 'Organisationen kan inte ta emot presentkortets belopp.', code: 'DONATION_AMOUNT_NOT_ACCEPTED' })),
  },
  states: {
    idle: async () => {
      expect(await screen.findByRole('button', { name: OFFER }, { timeout: 5000 })).toBeEnabled();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
    loading: async () => {
      expect(await within(region()).findByText('Hämtar organisationerna…')).toHaveAttribute('role', 'status');
    },
    loadFailed: async () => {
      expect(await within(region()).findByRole('alert')).toHaveTextContent('Vi kunde inte hämta organisationerna. Databasen svarar inte.');
    },
    choosing: async (_env, s) => {
      const group = await within(region()).findByRole('group', { name: 'Välj organisation' });
      expect(within(group).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(ctx(s).options!.map((o) => o.product.id));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    },
    confirming: async (_env, s) => {
      const name = ctx(s).choice!.merchant.name;
      const dialog = await screen.findByRole('dialog', { name: `Skänka värdet till ${name}?` });
      expect(dialog).toHaveTextContent(`Presentkortet på 149 kr hos Café Kanelbullen ersätts av en gåva på 149 kr till ${name}. Det går inte att ångra.`, {
        normalizeWhitespace: true,
      });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: CONFIRM })).toBeEnabled());
    },
    donating: async () => {
      const dialog = await screen.findByRole('dialog');
      expect(await within(dialog).findByRole('button', { name: 'Skänker…' })).toBeDisabled();
    },
    done: async () => {
      expect(await screen.findByRole('heading', { level: 1, name: donatedToSea.product.name }, { timeout: 5000 })).toBeInTheDocument();
      expect(await screen.findByText(`Klart! Presentkortet hos Café Kanelbullen är utbytt mot den här gåvan till ${sea.name}.`)).toBeInTheDocument();
    },
    failed: async (_env, s) => {
      const dialog = await screen.findByRole('dialog', { name: `Skänka värdet till ${ctx(s).choice!.merchant.name}?` });
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(`${ctx(s).choice!.merchant.name} kan inte ta emot 149 kr. Välj en annan organisation.`);
    },
  },
  cleanup: () => {
    vi.restoreAllMocks();
  },
});
