import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { Voucher } from '../../../contract/voucher.ts';
import type { VouchersContext } from '../../../machines/vouchers.ts';
import { ids } from '../../fixtures/vouchers.ts';
import { fakeSessionActor, installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi, type UiEnv } from '../harness/types.ts';

/**
 * The voucher store as the recipient meets it: the app's store is the machine under test (its
 * server calls are the harness's fakes), and a person moves between Mina gåvor (/voucher), a
 * voucher's page and a greetie's vouchers (/redeem/{greetieId}); a redeem at the till reaches the
 * store while one of them is shown.
 */
type Page = 'start' | 'list' | 'voucher' | 'greetie';
let page: Page = 'start';
let navigate: (to: string) => Promise<void>;
let current = '/404';

const user = () => userEvent.setup();
const ctx = (s: AnyMachineSnapshot) => s.context as VouchersContext;
/** What the store holds now (the harness has checked its state against the path's). */
const held = (env: UiEnv) => (env.actor!.getSnapshot() as AnyMachineSnapshot).context as VouchersContext;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Opens `to`; a page already shown is left and opened again (as a person coming back to it). */
async function open(to: string, next: Page) {
  if (current === to) await navigate('/404');
  await navigate(to);
  current = to;
  page = next;
}

/** A failed load's retry button when the page shows one, else the page opened again. */
async function openOrRetry(to: string, next: Page) {
  const retry = current === to ? screen.queryByRole('button', { name: 'Försök igen' }) : null;
  if (retry) return void (await user().click(retry));
  await open(to, next);
}

const statusOf = (v: Voucher) => (v.isRedeemed ? /^Inlöst / : /^Giltig t.o.m. 22 november 2027$/);

export default defineUi({
  skip(path) {
    const marked = path.events.findIndex((e) => e.type === 'user.markUsed');
    if (marked >= 0 && ctx(path.snapshots[marked]!).selected?.source === 'InStore') return "an InStore voucher's page has no 'Markera som använd'";
    return undefined;
  },
  render(env) {
    page = 'start';
    current = '/404';
    installDomStubs({ viewport: 'mobile' });
    // The store's calls are the harness's fakes; fetch answers only what the shell asks.
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' }));
    const { actor } = fakeSessionActor(signedIn({ id: 'u1', name: 'Anna Andersson' }), { vouchers: env.machine });
    const r = renderRoute('/404', { actor });
    navigate = async (to) => r.navigate(to);
    env.root = actor as unknown as AnyActorRef;
    env.actor = actor.system.get('vouchers') as AnyActorRef;
  },
  events: {
    'user.openList': () => openOrRetry('/voucher', 'list'),
    'user.openVoucher': (_env, e) => open(`/voucher/${(e as EventObject & { id: string }).id}`, 'voucher'),
    'user.openGreetie': (_env, e) => openOrRetry(`/redeem/${(e as EventObject & { greetieId: string }).greetieId}`, 'greetie'),
    'user.markUsed': async () => {
      await user().click(await screen.findByRole('button', { name: 'Markera som använd' }));
    },
    // Sent by the redeem machine on the till screen (its own binding, tests/model/ui/redeem.tsx, redeems
    // there; tests/client/voucher/redeem.test.tsx goes from the till to these pages): here the
    // store gets it while the person looks at a page, which must change without a reload.
    'redeem.succeeded': (env, event) => {
      env.actor!.send(event);
    },
  },
  states: {
    'list.idle': () => {},
    'list.loading': async (env) => {
      if (page !== 'list') return;
      if (held(env).list === null) expect(await screen.findByText('Hämtar dina gåvor…')).toBeInTheDocument();
      else expect(await screen.findAllByRole('heading', { level: 2, name: /Att använda|Använda och utgångna/ })).not.toHaveLength(0);
    },
    'list.ready': async (env) => {
      if (page !== 'list') return;
      const instore = held(env).list?.find((v) => v.id === ids.instore);
      if (!instore) return;
      const card = await screen.findByRole('link', { name: /Fika för två/ });
      await waitFor(() => expect(within(card).getByText(statusOf(instore))).toBeInTheDocument());
      expect(instore.isRedeemed ? within(screen.getByRole('region', { name: /Använda och utgångna/ })).getByText('Fika för två') : card).toBeInTheDocument();
    },
    'list.failed': async () => {
      if (page !== 'list') return;
      expect(await screen.findByRole('alert')).toHaveTextContent('Vi kunde inte hämta dina gåvor');
    },
    'selected.idle': () => {},
    'selected.loading': async (env) => {
      if (page !== 'voucher') return;
      const shown = held(env).selected;
      expect(await screen.findByRole('heading', { level: 1, name: shown ? shown.product.name : 'Hämtar gåvan…' })).toBeInTheDocument();
    },
    'selected.ready': async (env) => {
      const v = held(env).selected!;
      if (page !== 'voucher') return;
      expect(await screen.findByRole('heading', { level: 1, name: v.product.name })).toBeInTheDocument();
      const status = await screen.findByTestId('voucher-status');
      await waitFor(() => expect(status.textContent).toMatch(v.isRedeemed ? /^(Inlöst|Använd) / : /^Giltig t.o.m. 22 november 2027$/));
    },
    'selected.ready.idle': async (env) => {
      if (page !== 'voucher') return;
      const c = held(env);
      if (c.markError) expect(await screen.findByRole('alert')).toHaveTextContent('Det gick inte. Databasen svarar inte.');
      if (c.selected?.source === 'Code' && !c.selected.isRedeemed) expect(screen.getByRole('button', { name: 'Markera som använd' })).toBeEnabled();
    },
    'selected.ready.marking': async () => {
      expect(await screen.findByRole('button', { name: 'Markerar…' })).toBeDisabled();
    },
    'selected.failed': async () => {
      if (page !== 'voucher') return;
      expect(await screen.findByRole('alert')).toHaveTextContent('Vi hittar inte den här gåvan');
    },
    'greetie.idle': () => {},
    'greetie.loading': async (env) => {
      if (page !== 'greetie' || held(env).greetieVouchers !== null) return;
      expect(await screen.findByText('Hämtar gåvorna…')).toBeInTheDocument();
    },
    'greetie.ready': async (env) => {
      if (page !== 'greetie') return;
      const vs = held(env).greetieVouchers ?? [];
      const main = within(screen.getByRole('main'));
      await waitFor(() => expect(main.getAllByRole('link', { name: /Café Kanelbullen|Bokhörnan|Barnens Skog/ })).toHaveLength(vs.length));
      const instore = vs.find((v) => v.id === ids.instore);
      if (instore) expect(within(main.getByRole('link', { name: /Fika för två/ })).getByText(statusOf(instore))).toBeInTheDocument();
    },
    'greetie.failed': async () => {
      if (page !== 'greetie') return;
      expect(await screen.findByRole('alert')).toHaveTextContent('Vi kunde inte hämta gåvorna');
    },
  },
  cleanup: () => vi.restoreAllMocks(),
});
