import { assign, fromPromise, setup } from 'xstate';
import type { Failure } from '../contract/errors.ts';
import type { Voucher } from '../contract/voucher.ts';

/**
 * "Skänk värdet i stället" (/voucher/{id}): the recipient gives an unused in-store voucher to one
 * of the charities in the catalogue, for the same amount; the new Charity voucher replaces it.
 *
 * idle → loading → choosing → confirming → donating → done, or failed. The charities that can
 * take the voucher's amount are read from the catalogue (`loadCharities`); the recipient picks
 * one, and a confirmation says exactly what happens ("Presentkortet på 349 kr hos X ersätts av en
 * gåva på 349 kr till Y. Det går inte att ångra.") before anything is sent. The server's refusals
 * are kept as one Failure (contract/errors.ts) and worded by code: DONATION_VOUCHER_USED,
 * DONATION_VOUCHER_EXPIRED, DONATION_NOT_IN_STORE, VOUCHER_NOT_FOUND (the voucher is no longer
 * there to give), DONATION_AMOUNT_NOT_ACCEPTED, DONATION_PRODUCT_NOT_CHARITY, PRODUCT_NOT_FOUND
 * (pick another charity) and the rest.
 *
 * Who may be offered it is the server's rule (server/voucher/rules.ts `donate`), read here by
 * `isDonatable`: an InStore voucher with its whole amount left, not expired.
 *
 * Side effects are named: the actors `loadCharities` (GET /merchant/v2?source=Charity and each
 * charity's products, answering what can take the amount) and `donateVoucher` (POST
 * /voucher/{id}/donate), each rejecting with a Failure, provided by the page
 * (src/pages/voucher/donate.ts).
 *
 * Tags say what the page shows: `idle`, `loading`, `loadFailed`, `choosing`, `confirming`,
 * `busy`, `done`, `failed`.
 */

/** A charity that can take the voucher's amount, with the product the gift becomes. */
export interface CharityOption {
  merchant: { id: string; name: string; description: string; logoUrl: string };
  product: { id: string; name: string };
}

export interface DonateInput {
  voucher: Voucher;
}

export interface DonateContext {
  /** The in-store voucher to give away. */
  voucher: Voucher;
  /** The charities that can take its amount, once read. */
  options: CharityOption[] | null;
  /** The charity picked. */
  choice: CharityOption | null;
  /** The Charity voucher that replaced it. */
  donated: Voucher | null;
  /** Why reading the charities or the donation failed. */
  error: Failure | null;
}

export type DonateEvent =
  | { type: 'user.start' }
  | { type: 'user.choose'; productId: string }
  | { type: 'user.confirm' }
  | { type: 'user.back' }
  | { type: 'user.retry' }
  | { type: 'user.close' };

/** What the page shows; every state has exactly one of these tags. */
export const DONATE_SCREENS = ['idle', 'loading', 'loadFailed', 'choosing', 'confirming', 'busy', 'done', 'failed'] as const;
export type DonateTag = (typeof DONATE_SCREENS)[number];

/** The codes that are about the charity picked: another one may do. */
export const CHARITY_FAILURES: readonly string[] = ['DONATION_AMOUNT_NOT_ACCEPTED', 'DONATION_PRODUCT_NOT_CHARITY', 'PRODUCT_NOT_FOUND'];

/** The server's rule: an InStore voucher with its whole amount left, not expired. */
export function isDonatable(v: Voucher, now: Date): boolean {
  if (v.source !== 'InStore' || v.isRedeemed || v.balance !== v.amount) return false;
  return v.expiresAt === null || Date.parse(v.expiresAt) > now.getTime();
}

/** A catalogue product as far as the choice needs it. */
export interface CharityProduct {
  id: string;
  name: string;
  source: string;
  price?: number;
  minAmount?: number;
  maxAmount?: number;
  available?: boolean;
}

/**
 * The product of a charity that can take `amount` (the server's rule: a fixed price equal to it,
 * or a range that holds it); a fixed price that matches is the closer gift, so it comes first.
 */
export function charityProductFor<P extends CharityProduct>(products: readonly P[], amount: number): P | null {
  const usable = products.filter((p) => p.source === 'Charity' && p.available !== false);
  return (
    usable.find((p) => p.price === amount) ??
    usable.find((p) => p.price === undefined && p.minAmount !== undefined && p.maxAmount !== undefined && p.minAmount <= amount && amount <= p.maxAmount) ??
    null
  );
}

export const donateMachine = setup({
  types: {
    context: {} as DonateContext,
    events: {} as DonateEvent,
    input: {} as DonateInput,
    tags: {} as DonateTag,
  },
  actors: {
    /** The catalogue's charities that can take `amount` öre; rejects with a Failure. */
    loadCharities: fromPromise<CharityOption[], { amount: number }>(async () => {
      throw new Error('loadCharities is not provided');
    }),
    /** POST /voucher/{id}/donate `{ productId }` → the new Charity voucher; rejects with a Failure. */
    donateVoucher: fromPromise<Voucher, { voucherId: string; productId: string }>(async () => {
      throw new Error('donateVoucher is not provided');
    }),
  },
  actions: {
    clearError: assign({ error: null }),
    storeOptions: assign((_, p: { options: CharityOption[] }) => ({ options: p.options, error: null })),
    assignChoice: assign(({ context, event }) =>
      event.type === 'user.choose' ? { choice: context.options?.find((o) => o.product.id === event.productId) ?? null, error: null } : {},
    ),
    assignFailure: assign((_, p: { error: Failure }) => ({ error: p.error })),
    storeDonated: assign((_, p: { voucher: Voucher }) => ({ donated: p.voucher, error: null })),
    reset: assign({ choice: null, error: null }),
  },
  guards: {
    /** A charity from the list read: anything else is not offered. */
    isOffered: ({ context, event }) => event.type === 'user.choose' && (context.options ?? []).some((o) => o.product.id === event.productId),
  },
}).createMachine({
  id: 'donate',
  description: 'Mottagaren skänker värdet av ett oanvänt presentkort i butik till en välgörenhetsorganisation i stället; gåvan ersätter presentkortet.',
  context: ({ input }) => ({ voucher: input.voucher, options: null, choice: null, donated: null, error: null }),
  initial: 'idle',
  states: {
    idle: {
      description: "Presentkortet visas med 'Skänk värdet i stället'.",
      tags: ['idle'],
      on: {
        'user.start': { target: 'loading', actions: 'reset', description: "Mottagaren trycker 'Skänk värdet i stället': organisationerna hämtas." },
      },
    },
    loading: {
      description: 'Organisationerna i katalogen som kan ta emot beloppet hämtas.',
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'loadCharities',
        src: 'loadCharities',
        input: ({ context }) => ({ amount: context.voucher.amount }),
        onDone: {
          target: 'choosing',
          actions: { type: 'storeOptions', params: ({ event }) => ({ options: event.output }) },
          description: 'De kom (kanske ingen: då sägs det).',
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'De kunde inte hämtas; skälet visas.',
        },
      },
    },
    loadFailed: {
      description: "Organisationerna kunde inte hämtas: 'Försök igen' eller 'Avbryt'.",
      tags: ['loadFailed'],
      on: {
        'user.retry': { target: 'loading', description: 'Försök igen.' },
        'user.close': { target: 'idle', actions: 'reset', description: 'Mottagaren avbryter: presentkortet är kvar.' },
      },
    },
    choosing: {
      description: 'Mottagaren väljer en organisation i listan.',
      tags: ['choosing'],
      on: {
        'user.choose': {
          guard: 'isOffered',
          target: 'confirming',
          actions: 'assignChoice',
          description: 'En organisation är vald: bekräftelsen säger exakt vad som händer.',
        },
        'user.close': { target: 'idle', actions: 'reset', description: 'Mottagaren avbryter: presentkortet är kvar.' },
      },
    },
    confirming: {
      description: "Bekräftelsen: 'Presentkortet på 349 kr hos X ersätts av en gåva på 349 kr till Y. Det går inte att ångra.'",
      tags: ['confirming'],
      on: {
        'user.confirm': { target: 'donating', description: 'Mottagaren bekräftar: gåvan skickas.' },
        'user.back': { target: 'choosing', actions: 'reset', description: 'Tillbaka till listan för att välja en annan.' },
        'user.close': { target: 'idle', actions: 'reset', description: 'Mottagaren ångrar sig: inget händer.' },
      },
    },
    donating: {
      description: 'Servern byter presentkortet mot gåvan, en gång.',
      tags: ['busy'],
      invoke: {
        id: 'donateVoucher',
        src: 'donateVoucher',
        input: ({ context }) => ({ voucherId: context.voucher.id, productId: context.choice!.product.id }),
        onDone: {
          target: 'done',
          actions: { type: 'storeDonated', params: ({ event }) => ({ voucher: event.output }) },
          description: 'Klart: gåvan till organisationen ersätter presentkortet.',
        },
        onError: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => ({ error: event.error as Failure }) },
          description: 'Nej (redan använt, utgånget, organisationen tar inte emot beloppet) eller misslyckat: skälet visas.',
        },
      },
    },
    done: {
      description: 'Klart: sidan visar gåvan till organisationen som ersätter presentkortet.',
      tags: ['done'],
      type: 'final',
    },
    failed: {
      description: 'Det gick inte: skälet visas i bekräftelsen.',
      tags: ['failed'],
      on: {
        'user.back': { target: 'choosing', actions: 'reset', description: "'Välj en annan': organisationen kunde inte ta emot gåvan." },
        'user.close': { target: 'idle', actions: 'reset', description: 'Mottagaren stänger: presentkortet visas som det är nu.' },
      },
    },
  },
});
