import type { Greetie, PublicGreetie, Voucher } from '../../../../contract/greetie.ts';
import { greetieViewMachine, type GreetieView, type ViewerRole, type ViewGift } from '../../../../machines/greetieView.ts';
import { api, isApiError, type ApiClient } from '../../../api/client.ts';
import { getGreetieByRef, readGreetie } from '../../../api/greetieView.ts';
import { fromCall } from '../../../components/flow.ts';

/**
 * The greetie view's real implementations (machines/greetieView.ts): the reads of
 * src/api/greetieView.ts, turned into the view this person may see.
 */

/** The person opening the greetie: null for a visitor. */
export interface Viewer {
  id: string;
  mobileNumber: string;
}

/** Vouchers as gifts; their ids (for Mina gåvor and Lös in) only when they are the viewer's own. */
export function giftsOfVouchers(vouchers: readonly Voucher[], own: boolean): ViewGift[] {
  return vouchers.map((v) => ({
    key: v.id,
    voucherId: own ? v.id : null,
    merchantName: v.merchant.name,
    productName: v.product.name,
    amount: v.amount,
    isRedeemed: v.isRedeemed,
    redeemedAt: v.redeemedAt,
  }));
}

/** What the sender chose (before vouchers are issued, or when they are not shown). */
function giftsOfChoices(g: Pick<Greetie, 'gifts'>): ViewGift[] {
  return g.gifts.map((gift, i) => ({
    key: `gift-${i}`,
    voucherId: null,
    merchantName: gift.merchantName,
    productName: gift.productName,
    amount: gift.amount,
    isRedeemed: false,
    redeemedAt: null,
  }));
}

function viewOf(g: Greetie | PublicGreetie, role: ViewerRole): GreetieView {
  return {
    id: g.id,
    role,
    senderName: g.sender.name,
    recipientName: g.recipient?.name ?? null,
    message: g.message,
    content: g.content,
    media: g.media,
    // The recipient's own vouchers come live from the voucher store (GiftReveal); these are the names.
    gifts: g.vouchers.length ? giftsOfVouchers(g.vouchers, false) : giftsOfChoices(g),
    deliveredAt: g.deliveredAt,
    viewedAt: g.viewedAt,
    thanks: g.thanks ?? null,
  };
}

/** Who the signed-in person is to this greetie (one sent to oneself is received: its gifts are theirs). */
function roleOf(g: Greetie, viewer: Viewer): ViewerRole {
  if (g.recipient?.mobileNumber === viewer.mobileNumber) return 'recipient';
  return g.sender.id === viewer.id ? 'sender' : 'other';
}

/**
 * The greetie view machine's `loadGreetie`: by id (signed in: the read marks it viewed for its
 * recipient), or by the link's reference (the public view, which the server marks viewed unless
 * the caller is its sender). Someone signed in who opened the link is asked for as its sender or
 * recipient too (without marking it again), to learn whose it is; anyone else keeps the public
 * view. Phone numbers never leave this function: the view has names only.
 */
export async function loadGreetieView(
  params: { key: string; byId: boolean },
  viewer: Viewer | null,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<GreetieView> {
  if (params.byId) {
    const g = await readGreetie(params.key, true, signal, client);
    return viewOf(g, viewer ? roleOf(g, viewer) : 'other');
  }
  const p = await getGreetieByRef(params.key, signal, client);
  if (!viewer) return viewOf(p, 'visitor');
  try {
    const g = await readGreetie(p.id, false, signal, client);
    return viewOf(g, roleOf(g, viewer));
  } catch (e) {
    if (isApiError(e) && e.status === 404) return viewOf(p, 'other');
    throw e;
  }
}

/**
 * The greetie view machine (machines/greetieView.ts) with its real implementation, for `viewer`:
 * `loadGreetie` is `loadGreetieView`, its failure one Failure.
 */
export function provideGreetieView(viewer: Viewer | null) {
  return greetieViewMachine.provide({
    actors: {
      loadGreetie: fromCall<GreetieView, { key: string; byId: boolean }>(({ input, signal }) => loadGreetieView(input, viewer, signal)),
    },
  });
}
