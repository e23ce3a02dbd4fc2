import type { Failure } from '../../../contract/errors.ts';
import type { CharityOption } from '../../../machines/donate.ts';
import { donatedToSea, products, sea, warm } from '../../fixtures/charities.ts';
import { instore } from '../../fixtures/vouchers.ts';
import { defineHooks } from '../harness/types.ts';

/**
 * "Skänk värdet i stället" on the InStore fixture voucher (149 kr): the charities as the page
 * reads them from the catalogue fixture (Östersjöns framtid's 'Valfri gåva', Varma Händer's 149 kr
 * gift; Små Steg cannot take 149 kr), a donation that replaces it, and a charity that refuses.
 */
const option = (m: typeof sea, productIndex: number): CharityOption => {
  const p = products[m.id]![productIndex]!;
  return { merchant: { id: m.id, name: m.name, description: m.description, logoUrl: m.logoUrl }, product: { id: p.id, name: p.name } };
};
export const options: CharityOption[] = [option(sea, 1), option(warm, 0)];

const unavailable: Failure = { status: 503, code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.', retryAt: null };
export const refused: Failure = {
  status: 400,
  code: 'DONATION_AMOUNT_NOT_ACCEPTED',
  message: 'Organisationen kan inte ta emot presentkortets belopp. Välj en annan.',
  retryAt: null,
};

export default defineHooks({
  input: { voucher: instore },
  events: {
    'user.choose': [{ productId: options[0]!.product.id }],
    'xstate.done.actor.loadCharities': [{ output: options }],
    'xstate.error.actor.loadCharities': [{ error: unavailable }],
    'xstate.done.actor.donateVoucher': [{ output: donatedToSea }],
    'xstate.error.actor.donateVoucher': [{ error: refused }],
  },
});
