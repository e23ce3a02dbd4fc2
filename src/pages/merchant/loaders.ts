import { createLoader } from '../../../machines/loader.ts';
import { merchantSearchMachine, type MerchantSearchInput, type MerchantSearchPage } from '../../../machines/merchantSearch.ts';
import { loadMerchantDetails, searchMerchants, type MerchantDetailsData } from '../../api/merchant.ts';
import { fromCall } from '../../components/flow.ts';

/** The merchant pages' machines with their real server calls (machine.provide). */

export const merchantSearch = merchantSearchMachine.provide({
  actors: {
    search: fromCall<MerchantSearchPage, MerchantSearchInput>(({ input, signal }) =>
      searchMerchants({ ...input.filters, cursor: input.cursor }, signal),
    ),
  },
});

export const merchantDetailsLoader = createLoader<{ id: string }, MerchantDetailsData>().provide({
  actors: {
    load: fromCall<MerchantDetailsData, { params: { id: string } }>(({ input, signal }) => loadMerchantDetails(input.params, signal)),
  },
});
