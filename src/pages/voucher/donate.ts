import type { Merchant } from '../../../contract/merchant.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { charityProductFor, donateMachine, type CharityOption } from '../../../machines/donate.ts';
import { getMerchantProducts, listMerchants } from '../../api/merchant.ts';
import { donateVoucher } from '../../api/voucher.ts';
import { fromCall } from '../../components/flow.ts';

/** More pages of charities than this are not read (the catalogue holds a handful). */
const MAX_PAGES = 5;

/** The catalogue's charities (GET /merchant/v2?source=Charity, every page up to MAX_PAGES). */
async function charities(signal: AbortSignal): Promise<Merchant[]> {
  const found: Merchant[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await listMerchants({ source: 'Charity', limit: 100, cursor }, signal);
    found.push(...answer.items);
    if (!answer.nextCursor) break;
    cursor = answer.nextCursor;
  }
  return found;
}

/**
 * The charities that can take `amount` öre, each with the product the gift becomes (the
 * server's rule, machines/donate.ts `charityProductFor`), in the catalogue's order.
 */
export async function loadCharityOptions(amount: number, signal: AbortSignal): Promise<CharityOption[]> {
  const merchants = await charities(signal);
  const offers = await Promise.all(
    merchants.map(async (m): Promise<CharityOption | null> => {
      const product = charityProductFor(await getMerchantProducts(m.id, signal), amount);
      if (!product) return null;
      return { merchant: { id: m.id, name: m.name, description: m.description, logoUrl: m.logoUrl }, product: { id: product.id, name: product.name } };
    }),
  );
  return offers.filter((o): o is CharityOption => o !== null);
}

/**
 * The donate machine's real implementations (machines/donate.ts): the catalogue's charities and
 * POST /voucher/{id}/donate, each refusal reaching the machine as one Failure.
 */
export const donateFlow = donateMachine.provide({
  actors: {
    loadCharities: fromCall<CharityOption[], { amount: number }>(({ input, signal }) => loadCharityOptions(input.amount, signal)),
    donateVoucher: fromCall<Voucher, { voucherId: string; productId: string }>(({ input, signal }) => donateVoucher(input.voucherId, input.productId, signal)),
  },
});
