import { fromPromise } from 'xstate';
import { loaderMachine } from '../../../machines/loader.ts';
import { getSandboxMerchants, loadMerchantDetails, loadMerchantList, type MerchantListParams } from '../../api/merchant.ts';

/**
 * The loader machine with the real `load` for each merchant page (machine.provide). The data's
 * type is the page's to know: MerchantListData, MerchantDetailsData, SandboxMerchant[].
 */

export const merchantListLoader = loaderMachine.provide({
  actors: { load: fromPromise<unknown, unknown>(({ input, signal }) => loadMerchantList(input as MerchantListParams, signal)) },
});

export const merchantDetailsLoader = loaderMachine.provide({
  actors: { load: fromPromise<unknown, unknown>(({ input, signal }) => loadMerchantDetails(input as { id: string }, signal)) },
});

export const sandboxMerchantsLoader = loaderMachine.provide({
  actors: { load: fromPromise<unknown, unknown>(({ signal }) => getSandboxMerchants(signal)) },
});
