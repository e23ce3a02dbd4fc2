import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { all, charity, code, ids, instore, redeemed } from '../../fixtures/vouchers.ts';
import { charities, donatedToSea, products, sea, warm } from '../../fixtures/charities.ts';
import type { Call } from './server.ts';
import { fakeVoucherServer, json } from './server.ts';

/**
 * "Skänk värdet i stället" on a voucher's page (/voucher/{id}) through the real route table, the
 * app's voucher store and the donate machine; fetch answers like the API, the catalogue's
 * charities included.
 */

vi.setConfig({ testTimeout: 20_000 });
configure({ asyncUtilTimeout: 5_000 });

let server: ReturnType<typeof fakeVoucherServer>;
let donated = false;
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  donated = false;
  server = fakeVoucherServer();
  server.answer('GET /api/merchant/v2', () => json(200, { items: charities, nextCursor: null }));
  for (const m of charities) server.answer(`GET /api/merchant/${m.id}/products`, () => json(200, products[m.id]));
  server.answer(`POST /api/voucher/${ids.instore}/donate`, () => {
    donated = true;
    return json(200, donatedToSea);
  });
  server.answer(`GET /api/voucher/${donatedToSea.id}`, () => json(200, donatedToSea));
  server.answer(`GET /api/voucher/${ids.instore}`, () =>
    donated ? json(404, { code: 'VOUCHER_NOT_FOUND', message: 'Presentkortet finns inte.' }) : json(200, instore),
  );
});
afterEach(() => vi.restoreAllMocks());

const session = signedIn({ id: 'u1', name: 'Anna Andersson' });
const donations = () => server.calls.filter((c: Call) => c.method === 'POST' && c.path.endsWith('/donate'));

async function openChoices() {
  const r = renderRoute(`/voucher/${ids.instore}`, { session });
  await r.user.click(await screen.findByRole('button', { name: 'Skänk värdet i stället' }));
  const group = await screen.findByRole('group', { name: 'Välj organisation' });
  return { ...r, group };
}

describe("'Skänk värdet i stället'", () => {
  it('is offered on an unused in-store voucher, and not on a used, partly used, Code or Charity voucher', async () => {
    const partly = { ...instore, id: '1a1a1a1a-0000-4000-8000-0000000000e1', kind: 'value' as const, amount: 34900, balance: 20000 };
    server.answer(`GET /api/voucher/${partly.id}`, () => json(200, partly));
    const first = renderRoute(`/voucher/${ids.instore}`, { session });
    expect(await screen.findByRole('region', { name: 'Skänk värdet i stället' })).toHaveTextContent('Ge hela värdet, 149 kr, till en välgörenhetsorganisation');
    first.unmount();
    for (const id of [partly.id, redeemed.id, code.id, charity.id]) {
      const r = renderRoute(`/voucher/${id}`, { session });
      await screen.findByTestId('voucher-status');
      expect(screen.queryByRole('button', { name: 'Skänk värdet i stället' }), id).not.toBeInTheDocument();
      r.unmount();
    }
  });

  it('lists the charities that can take the amount (one that cannot is left out); going on asks first and sends nothing', async () => {
    const { user, group } = await openChoices();
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual([expect.stringContaining(sea.name), expect.stringContaining(warm.name)]);
    expect(within(group).getByRole('radio', { name: sea.name })).toBeChecked();
    expect(within(group).getByRole('radio', { name: sea.name })).toHaveAccessibleDescription(sea.description);
    await user.click(within(group).getByRole('radio', { name: warm.name }));
    await user.click(screen.getByRole('button', { name: 'Fortsätt' }));
    const dialog = await screen.findByRole('dialog', { name: `Skänka värdet till ${warm.name}?` });
    expect(dialog).toHaveAccessibleDescription(
      `Presentkortet på 149\u00a0kr hos Café Kanelbullen ersätts av en gåva på 149\u00a0kr till ${warm.name}. Det går inte att ångra.`,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Tillbaka' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByRole('group', { name: 'Välj organisation' })).getByRole('radio', { name: warm.name })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Avbryt' }));
    expect(await screen.findByRole('button', { name: 'Skänk värdet i stället' })).toBeInTheDocument();
    expect(donations()).toEqual([]);
  });

  it("confirmed: donated once as the gift the charity takes at that amount, and the Charity voucher that replaces it is shown", async () => {
    const { user, router } = await openChoices();
    await user.click(screen.getByRole('button', { name: 'Fortsätt' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /^Skänk 149\skr$/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/voucher/${donatedToSea.id}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Valfri gåva' })).toBeInTheDocument();
    const notice = screen.getByText(`Klart! Presentkortet hos Café Kanelbullen är utbytt mot den här gåvan till ${sea.name}.`);
    expect(notice).toHaveAttribute('role', 'status');
    await waitFor(() => expect(notice).toHaveFocus());
    expect(screen.getByRole('region', { name: 'Gåvobevis' })).toHaveTextContent(sea.name);
    // Östersjöns framtid's fixed gift is 100 kr: its 'Valfri gåva' (50–5 000 kr) takes 149 kr.
    expect(donations().map((c) => c.body)).toEqual([{ productId: products[sea.id]![1]!.id }]);
    // Back in the list, the voucher is gone and the gift is there (the list is read again).
    server.answer('GET /api/voucher', () => json(200, [...all.filter((v) => v.id !== ids.instore), donatedToSea]));
    await user.click(screen.getByRole('link', { name: /Till Mina gåvor/ }));
    expect(await screen.findByRole('link', { name: new RegExp(sea.name) })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('link', { name: /Fika för två/ })).not.toBeInTheDocument());
  });

  it('a charity that cannot take the amount: said by code, and another one can be chosen', async () => {
    server.answer(`POST /api/voucher/${ids.instore}/donate`, () => json(400, { code: 'DONATION_AMOUNT_NOT_ACCEPTED', message: 'Serverns text' }));
    const { user } = await openChoices();
    await user.click(screen.getByRole('button', { name: 'Fortsätt' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /^Skänk 149\skr$/ }));
    const alert = await within(await screen.findByRole('dialog')).findByRole('alert');
    expect(alert).toHaveTextContent(`${sea.name} kan inte ta emot 149 kr. Välj en annan organisation.`);
    await user.click(screen.getByRole('button', { name: 'Välj en annan' }));
    expect(await screen.findByRole('group', { name: 'Välj organisation' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it.each([
    [409, 'DONATION_VOUCHER_USED', 'Presentkortet har redan använts och kan inte skänkas.'],
    [409, 'DONATION_VOUCHER_EXPIRED', 'Presentkortet har gått ut och kan inte skänkas.'],
    [404, 'VOUCHER_NOT_FOUND', 'Presentkortet finns inte längre. Det kan redan vara skänkt.'],
    [503, 'DB_UNAVAILABLE', 'Det gick inte. Databasen svarar inte.'],
  ])('%i %s: its own words, nothing else to choose; closing leaves the page as it was', async (status, code, text) => {
    server.answer(`POST /api/voucher/${ids.instore}/donate`, () => json(status, { code, message: 'Databasen svarar inte.' }));
    const { user } = await openChoices();
    await user.click(screen.getByRole('button', { name: 'Fortsätt' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /^Skänk 149\skr$/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(text);
    expect(within(dialog).queryByRole('button', { name: 'Välj en annan' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Stäng' }));
    expect(await screen.findByRole('button', { name: 'Skänk värdet i stället' })).toBeInTheDocument();
    expect(donations()).toHaveLength(1);
  });

  it('says it is fetching; a failed read says why and "Försök igen" reads again', async () => {
    let fail = true;
    server.answer('GET /api/merchant/v2', () => (fail ? json(503, { code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' }) : json(200, { items: charities, nextCursor: null })));
    const hold = server.hold((c) => c.path === '/api/merchant/v2');
    const { user } = renderRoute(`/voucher/${ids.instore}`, { session });
    await user.click(await screen.findByRole('button', { name: 'Skänk värdet i stället' }));
    expect(await screen.findByText('Hämtar organisationerna…')).toHaveAttribute('role', 'status');
    hold.release();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Vi kunde inte hämta organisationerna. Databasen svarar inte.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Försök igen' }));
    expect(await screen.findByRole('group', { name: 'Välj organisation' })).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === '/api/merchant/v2').map((c) => c.query.get('source'))).toEqual(['Charity', 'Charity']);
  });

  it('no charity can take the amount: says so', async () => {
    server.answer('GET /api/merchant/v2', () => json(200, { items: [charities[2]], nextCursor: null }));
    const { user } = renderRoute(`/voucher/${ids.instore}`, { session });
    await user.click(await screen.findByRole('button', { name: 'Skänk värdet i stället' }));
    expect(await screen.findByText('Ingen organisation i katalogen kan ta emot 149 kr just nu.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Stäng' }));
    expect(await screen.findByRole('button', { name: 'Skänk värdet i stället' })).toBeInTheDocument();
  });
});
