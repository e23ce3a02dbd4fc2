import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { Voucher } from '../contract/voucher.ts';

/**
 * The voucher store: a long-lived actor (systemId 'vouchers', spawned by machines/app.ts) that
 * keeps what the recipient's pages show of their gifts — the list ("Mina gåvor"), the voucher
 * open now, and the vouchers of the greetie open now — so that a redeem on the till screen, or a
 * Code or Charity voucher marked used, shows in every one of them at once, without a reload.
 *
 * Three regions, one per thing kept, each loading when a page opens it: `list`, `selected`,
 * `greetie`. A page opens what it shows on every visit (`user.openList`, `user.openVoucher`,
 * `user.openGreetie`), and sees what is kept while the fresh copy loads. Opening the voucher that
 * is already shown loads nothing (the till screen opened from the voucher's page). Whatever was
 * kept for another user is forgotten as soon as a page opens something for a new one.
 *
 * `redeem.succeeded` (from the redeem machine: a redeem, part of a balance, or an undo) and a
 * voucher marked used here change `isRedeemed`, `redeemedAt`, `balance` and `redemptions` in the
 * list, the selected voucher and the greetie's vouchers alike.
 *
 * Side effects are named: the actors `loadVouchers` (GET /voucher), `loadVoucher`
 * (GET /voucher/{id}), `loadGreetieVouchers` (GET /greetie/{id}/vouchers), `markUsed`
 * (POST /voucher/redeemed?id=), each rejecting with a Failure (contract/errors.ts). The app
 * provides them with `.provide()` (src/app/vouchers.ts).
 *
 * Tags say what pages show: `list:loading`, `list:ready`, `list:failed`, `voucher:loading`,
 * `voucher:ready`, `voucher:failed`, `voucher:marking`, `greetie:loading`, `greetie:ready`,
 * `greetie:failed`.
 */

export interface VouchersContext {
  /** Whose vouchers are kept. */
  userId: string | null;
  list: Voucher[] | null;
  listError: Failure | null;
  selectedId: string | null;
  selected: Voucher | null;
  selectedError: Failure | null;
  /** Why marking the selected voucher used failed. */
  markError: Failure | null;
  greetieId: string | null;
  greetieVouchers: Voucher[] | null;
  greetieError: Failure | null;
}

export type VouchersEvent =
  | { type: 'user.openList'; userId: string }
  | { type: 'user.openVoucher'; userId: string; id: string }
  | { type: 'user.openGreetie'; userId: string; greetieId: string }
  | { type: 'user.markUsed' }
  | { type: 'redeem.succeeded'; voucher: Voucher };

export type VouchersTag =
  | 'list:loading'
  | 'list:ready'
  | 'list:failed'
  | 'voucher:loading'
  | 'voucher:ready'
  | 'voucher:failed'
  | 'voucher:marking'
  | 'greetie:loading'
  | 'greetie:ready'
  | 'greetie:failed';

/** The voucher with the till's state of `redeemed` (used, balance, redemptions) when it is the same one. */
const withRedeemed = (v: Voucher, redeemed: Voucher): Voucher =>
  v.id === redeemed.id
    ? { ...v, isRedeemed: redeemed.isRedeemed, redeemedAt: redeemed.redeemedAt, balance: redeemed.balance, redemptions: redeemed.redemptions }
    : v;

const empty = {
  list: null,
  listError: null,
  selectedId: null,
  selected: null,
  selectedError: null,
  markError: null,
  greetieId: null,
  greetieVouchers: null,
  greetieError: null,
} satisfies Omit<VouchersContext, 'userId'>;

export const vouchersMachine = setup({
  types: {
    context: {} as VouchersContext,
    events: {} as VouchersEvent,
    tags: {} as VouchersTag,
  },
  actors: {
    /** GET /voucher. */
    loadVouchers: fromPromise<Voucher[]>(async () => {
      throw new Error('loadVouchers is not provided');
    }),
    /** GET /voucher/{id}. */
    loadVoucher: fromPromise<Voucher, { id: string }>(async () => {
      throw new Error('loadVoucher is not provided');
    }),
    /** GET /greetie/{id}/vouchers. */
    loadGreetieVouchers: fromPromise<Voucher[], { greetieId: string }>(async () => {
      throw new Error('loadGreetieVouchers is not provided');
    }),
    /** POST /voucher/redeemed?id=. */
    markUsed: fromPromise<Voucher, { id: string }>(async () => {
      throw new Error('markUsed is not provided');
    }),
  },
  actions: {
    /** A page opened something for another user than the one kept: forget everything kept. */
    adoptUser: assign(({ context, event }) =>
      'userId' in event && event.userId !== context.userId ? { ...empty, userId: event.userId } : {},
    ),
    clearListError: assign({ listError: null }),
    storeList: assign((_, p: { vouchers: Voucher[] }) => ({ list: p.vouchers, listError: null })),
    storeListError: assign((_, p: { error: Failure }) => ({ listError: p.error })),
    /** The voucher to show; what a list already holds of it is shown while it loads. */
    selectVoucher: assign(({ context, event }) => {
      if (event.type !== 'user.openVoucher') return {};
      const known = context.selectedId === event.id ? context.selected : null;
      const fromLists = known ?? context.list?.find((v) => v.id === event.id) ?? context.greetieVouchers?.find((v) => v.id === event.id) ?? null;
      return { selectedId: event.id, selected: fromLists, selectedError: null, markError: null };
    }),
    storeSelected: assign((_, p: { voucher: Voucher }) => ({ selected: p.voucher, selectedError: null })),
    storeSelectedError: assign((_, p: { error: Failure }) => ({ selected: null, selectedError: p.error })),
    clearMarkError: assign({ markError: null }),
    storeMarkError: assign((_, p: { error: Failure }) => ({ markError: p.error })),
    selectGreetie: assign(({ context, event }) =>
      event.type === 'user.openGreetie'
        ? { greetieId: event.greetieId, greetieVouchers: context.greetieId === event.greetieId ? context.greetieVouchers : null, greetieError: null }
        : {},
    ),
    storeGreetie: assign((_, p: { vouchers: Voucher[] }) => ({ greetieVouchers: p.vouchers, greetieError: null })),
    storeGreetieError: assign((_, p: { error: Failure }) => ({ greetieError: p.error })),
    /** The spec's rule: a redeemed voucher is redeemed in every list, in the selected one and in the greetie's. */
    applyRedeemed: assign(({ context }, p: { voucher: Voucher }) => ({
      list: context.list?.map((v) => withRedeemed(v, p.voucher)) ?? null,
      selected: context.selected ? withRedeemed(context.selected, p.voucher) : null,
      greetieVouchers: context.greetieVouchers?.map((v) => withRedeemed(v, p.voucher)) ?? null,
    })),
  },
  guards: {
    /** The page opens the voucher already shown: nothing to load. */
    isShownVoucher: ({ context, event }) => event.type === 'user.openVoucher' && event.userId === context.userId && event.id === context.selectedId,
    /** Only a Code or Charity voucher not yet used is marked used by its owner (InStore needs the till). */
    canMarkUsed: ({ context }) => context.selected !== null && context.selected.source !== 'InStore' && !context.selected.isRedeemed,
  },
}).createMachine({
  id: 'vouchers',
  description: 'Mottagarens gåvor som varje sida visar dem: listan, gåvan som är öppen, den öppna greetiens gåvor; en inlösen syns överallt.',
  context: { userId: null, ...empty },
  type: 'parallel',
  on: {
    'redeem.succeeded': {
      actions: { type: 'applyRedeemed', params: ({ event }) => ({ voucher: event.voucher }) },
      description: 'Inlöst i kassan: visas som inlöst överallt på en gång.',
    },
  },
  states: {
    list: {
      description: 'Personens gåvor (Mina gåvor, och kassans lista).',
      initial: 'idle',
      on: {
        'user.openList': { target: '.loading', actions: 'adoptUser', description: 'En sida visar listan: hämta den (det som redan finns visas under tiden).' },
      },
      states: {
        idle: { description: 'Ingen sida har bett om listan än.' },
        loading: {
          description: 'Listan hämtas.',
          tags: ['list:loading'],
          entry: 'clearListError',
          invoke: {
            id: 'loadVouchers',
            src: 'loadVouchers',
            onDone: { target: 'ready', actions: { type: 'storeList', params: ({ event }) => ({ vouchers: event.output }) }, description: 'Listan kom.' },
            onError: { target: 'failed', actions: { type: 'storeListError', params: ({ event }) => ({ error: event.error as Failure }) }, description: 'Den kunde inte hämtas; skälet visas.' },
          },
        },
        ready: { description: 'Listan visas.', tags: ['list:ready'] },
        failed: { description: 'Listan kunde inte hämtas; sidan erbjuder att försöka igen.', tags: ['list:failed'] },
      },
    },
    selected: {
      description: 'Gåvan som är öppen just nu (dess sida, eller kassaskärmen).',
      initial: 'idle',
      on: {
        'user.openVoucher': {
          target: '.loading',
          actions: ['adoptUser', 'selectVoucher'],
          description: 'En sida visar en gåva: hämta den (det en lista vet om den visas under tiden).',
        },
      },
      states: {
        idle: { description: 'Ingen gåva är öppen.' },
        loading: {
          description: 'Gåvan hämtas.',
          tags: ['voucher:loading'],
          invoke: {
            id: 'loadVoucher',
            src: 'loadVoucher',
            input: ({ context }) => ({ id: context.selectedId ?? '' }),
            onDone: { target: 'ready', actions: { type: 'storeSelected', params: ({ event }) => ({ voucher: event.output }) }, description: 'Gåvan kom.' },
            onError: {
              target: 'failed',
              actions: { type: 'storeSelectedError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Hittades inte (eller är någon annans), eller misslyckades; sidan säger vilket.',
            },
          },
        },
        ready: {
          description: 'Gåvan visas.',
          tags: ['voucher:ready'],
          initial: 'idle',
          on: {
            'user.openVoucher': { guard: 'isShownVoucher', description: 'Gåvan visas redan (kassaskärmen öppnades från dess sida): inget att hämta.' },
          },
          states: {
            idle: {
              description: 'Väntar; en kod- eller välgörenhetsgåva kan markeras som använd.',
              on: {
                'user.markUsed': {
                  guard: 'canMarkUsed',
                  target: 'marking',
                  actions: 'clearMarkError',
                  description: "'Markera som använd' (kod) eller 'Skänk gåvan' bekräftad (välgörenhet).",
                },
              },
            },
            marking: {
              description: 'Gåvan markeras som använd.',
              tags: ['voucher:marking'],
              invoke: {
                id: 'markUsed',
                src: 'markUsed',
                input: ({ context }) => ({ id: context.selectedId ?? '' }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'applyRedeemed', params: ({ event }) => ({ voucher: event.output }) },
                  description: 'Markerad som använd: visas som använd överallt på en gång (sidan säger det).',
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'storeMarkError', params: ({ event }) => ({ error: event.error as Failure }) },
                  description: 'Inte markerad: skälet visas vid knappen.',
                },
              },
            },
          },
        },
        failed: { description: 'Gåvan kunde inte visas; sidan säger varför.', tags: ['voucher:failed'] },
      },
    },
    greetie: {
      description: 'Gåvorna i greetien som är öppen just nu (inlösen från en mottagen greetie).',
      initial: 'idle',
      on: {
        'user.openGreetie': {
          target: '.loading',
          actions: ['adoptUser', 'selectGreetie'],
          description: 'En sida visar en greeties gåvor: hämta dem.',
        },
      },
      states: {
        idle: { description: 'Ingen greetie är öppen.' },
        loading: {
          description: 'Greetiens gåvor hämtas.',
          tags: ['greetie:loading'],
          invoke: {
            id: 'loadGreetieVouchers',
            src: 'loadGreetieVouchers',
            input: ({ context }) => ({ greetieId: context.greetieId ?? '' }),
            onDone: { target: 'ready', actions: { type: 'storeGreetie', params: ({ event }) => ({ vouchers: event.output }) }, description: 'De kom.' },
            onError: {
              target: 'failed',
              actions: { type: 'storeGreetieError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Hittades inte (eller inte levererad än), eller misslyckades; sidan säger vilket.',
            },
          },
        },
        ready: { description: 'Greetiens gåvor visas.', tags: ['greetie:ready'] },
        failed: { description: 'Greetiens gåvor kunde inte visas.', tags: ['greetie:failed'] },
      },
    },
  },
});
