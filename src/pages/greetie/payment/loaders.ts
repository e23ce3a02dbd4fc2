import { fromPromise } from 'xstate';
import { createLoader } from '../../../../machines/loader.ts';
import { getSeller, type Seller } from '../../../api/payment.ts';

/** The seller named on the receipt (null when the server does not say). */
export const sellerLoader = createLoader<Record<string, never>, Seller | null>().provide({
  actors: {
    load: fromPromise<Seller | null, { params: Record<string, never> }>(({ signal }) => getSeller(signal)),
  },
});
