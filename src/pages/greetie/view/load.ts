import type { Greetie, Voucher } from '../../../../contract/greetie.ts';
import type { GreetieView, ViewerRole, ViewGift } from '../../../../machines/greetieView.ts';
import { api, isApiError, type ApiClient } from '../../../api/client.ts';
import { getGreetieByRef, getGreetieVouchers, readGreetie, type PublicGreetie } from '../../../api/greetieView.ts';

/** The person opening the greetie: null for a visitor. */
export interface Viewer {
  id: string;
  mobileNumber: string;
}

const notFound = (e: unknown) => isApiError(e) && e.status === 404;

function giftsOfVouchers(vouchers: readonly Voucher[], withIds: boolean): ViewGift[] {
  return vouchers.map((v) => ({
    key: v.id,
    voucherId: withIds ? v.id : null,
    merchantName: v.merchant.name,
    productName: v.product.name,
    amount: v.amount,
    isRedeemed: v.isRedeemed,
    redeemedAt: v.redeemedAt,
  }));
}

function giftsOfChoices(gifts: ReadonlyArray<{ productName: string; merchantName: string; amount: number }>): ViewGift[] {
  return gifts.map((g, i) => ({
    key: `gift-${i}`,
    voucherId: null,
    merchantName: g.merchantName,
    productName: g.productName,
    amount: g.amount,
    isRedeemed: false,
    redeemedAt: null,
  }));
}

/** The public view (a visitor, or someone signed in who is neither its sender nor its recipient). */
export function fromPublic(p: PublicGreetie, role: ViewerRole): GreetieView {
  const vouchers = p.vouchers ?? [];
  return {
    id: p.id,
    role,
    senderName: p.sender?.name ?? null,
    recipientName: p.recipient?.name ?? null,
    message: p.message ?? '',
    content: p.content ?? [],
    media: p.media ?? null,
    gifts: vouchers.length
      ? vouchers.map((v) => ({
          key: v.id,
          voucherId: null,
          merchantName: v.merchant.name,
          productName: v.product.name,
          amount: v.amount,
          isRedeemed: v.isRedeemed,
          redeemedAt: v.redeemedAt,
        }))
      : giftsOfChoices(p.gifts ?? []),
    deliveredAt: p.deliveredAt ?? null,
    viewedAt: p.viewedAt ?? null,
  };
}

/** Who the signed-in person is to this greetie (one sent to oneself is received: its gifts are theirs). */
function roleOf(g: Greetie, viewer: Viewer): ViewerRole {
  if (g.recipient?.mobileNumber === viewer.mobileNumber) return 'recipient';
  return g.sender.id === viewer.id ? 'sender' : 'other';
}

/**
 * The recipient's vouchers carry their ids (for Mina gåvor and Lös in); the sender sees what was
 * given. Vouchers exist once it is paid; until the list can be read, what was chosen is shown.
 */
async function giftsFor(g: Greetie, role: ViewerRole, signal: AbortSignal | undefined, client: ApiClient): Promise<ViewGift[]> {
  if (g.gifts.length === 0 && g.vouchers.length === 0) return [];
  let vouchers: Voucher[] = g.vouchers;
  if (vouchers.length === 0) {
    try {
      vouchers = await getGreetieVouchers(g.id, signal, client);
    } catch (e) {
      if (!notFound(e)) throw e;
    }
  }
  return vouchers.length ? giftsOfVouchers(vouchers, role === 'recipient') : giftsOfChoices(g.gifts);
}

/** The greetie read by its sender or recipient: nothing of it is hidden from them but codes, which the view never shows. */
async function fromGreetie(g: Greetie, role: ViewerRole, signal: AbortSignal | undefined, client: ApiClient): Promise<GreetieView> {
  return {
    id: g.id,
    role,
    senderName: g.sender.name,
    recipientName: g.recipient?.name ?? null,
    message: g.message,
    content: g.content,
    media: g.media,
    gifts: await giftsFor(g, role, signal, client),
    deliveredAt: g.deliveredAt,
    viewedAt: g.viewedAt,
  };
}

/**
 * The greetie view machine's `loadGreetie`: by id (signed in: the read marks it viewed for its
 * recipient), or by the link's reference (the public view, which the server marks viewed unless
 * the caller is its sender). Someone signed in who opened the link is asked for as its sender or
 * recipient too (without marking it again), to learn which gifts are theirs; anyone else keeps
 * the public view.
 */
export async function loadGreetieView(
  params: { key: string; byId: boolean },
  viewer: Viewer | null,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<GreetieView> {
  if (params.byId) {
    const g = await readGreetie(params.key, true, signal, client);
    return fromGreetie(g, viewer ? roleOf(g, viewer) : 'other', signal, client);
  }
  const p = await getGreetieByRef(params.key, signal, client);
  if (!viewer) return fromPublic(p, 'visitor');
  let g: Greetie;
  try {
    g = await readGreetie(p.id, false, signal, client);
  } catch (e) {
    if (notFound(e)) return fromPublic(p, 'other');
    throw e;
  }
  return fromGreetie(g, roleOf(g, viewer), signal, client);
}
