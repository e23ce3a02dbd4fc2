import type { Greetie } from '../../../contract/greetie.ts';
import type { MerchantPage, Product } from '../../../contract/merchant.ts';
import { createLoader } from '../../../machines/loader.ts';
import { getGreetie, listGreeties, type GreetiePage } from '../../api/greetie.ts';
import { getMerchantProducts, listMerchants } from '../../api/merchant.ts';
import { fromCall } from '../../components/flow.ts';

/** The greetie pages' loaders with their real server calls. */

/** The gifts step's merchants (the catalogue's data, as on /merchant). */
export const merchantsLoader = createLoader<{ q: string }, MerchantPage>().provide({
  actors: {
    load: fromCall<MerchantPage, { params: { q: string } }>(({ input, signal }) => listMerchants({ q: input.params.q, limit: 50 }, signal)),
  },
});

/** One merchant's products, for the gifts step. */
export const productsLoader = createLoader<{ merchantId: string }, Product[]>().provide({
  actors: {
    load: fromCall<Product[], { params: { merchantId: string } }>(({ input, signal }) => getMerchantProducts(input.params.merchantId, signal)),
  },
});

export const greetieListLoader = createLoader<{ cursor: string | null }, GreetiePage>().provide({
  actors: {
    load: fromCall<GreetiePage, { params: { cursor: string | null } }>(({ input, signal }) => listGreeties({ cursor: input.params.cursor }, signal)),
  },
});

export const greetieLoader = createLoader<{ id: string }, Greetie>().provide({
  actors: {
    load: fromCall<Greetie, { params: { id: string } }>(({ input, signal }) => getGreetie(input.params.id, signal)),
  },
});
