import type { Seller } from '../../contract/seller.ts';
import { createLoader } from '../../machines/loader.ts';
import { getSeller } from '../api/seller.ts';
import { useLoader, type LoaderView } from './useLoader.ts';
import { fromCall } from './flow.ts';

/**
 * The seller and the legal pages, for every page that sells or names them (the terms, the
 * privacy policy and the accessibility statement themselves, the footer, the review step, the
 * receipt). Pages link with `TERMS_PATH`, `PRIVACY_PATH` and `ACCESSIBILITY_PATH` and show the
 * seller with `useSeller()`.
 */
export { ACCESSIBILITY_PATH, PRIVACY_PATH, TERMS_PATH } from './legalPaths.ts';

/** GET /api/seller as a loader. */
export const sellerLoader = createLoader<void, Seller>().provide({
  actors: { load: fromCall<Seller, { params: void }>(({ signal }) => getSeller(signal)) },
});

/** The seller (company name, organisation number, e-mail): `{ status, data, error, retry }`. */
export function useSeller(): LoaderView<Seller> {
  return useLoader(sellerLoader, undefined);
}
