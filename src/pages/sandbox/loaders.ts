import { fromPromise } from 'xstate';
import type { SandboxMerchant } from '../../../contract/merchant.ts';
import type { SandboxSms } from '../../../contract/sandbox.ts';
import { createLoader } from '../../../machines/loader.ts';
import { smsOutboxMachine } from '../../../machines/smsOutbox.ts';
import { getSandboxMerchants, getSandboxSms } from '../../api/sandbox.ts';

/** The sandbox page's machines with their real server calls (machine.provide). */

export const sandboxMerchantsLoader = createLoader<void, SandboxMerchant[]>().provide({
  actors: { load: fromPromise<SandboxMerchant[], { params: void }>(({ signal }) => getSandboxMerchants(signal)) },
});

export const smsOutbox = smsOutboxMachine.provide({
  actors: { readOutbox: fromPromise<SandboxSms[]>(({ signal }) => getSandboxSms(signal)) },
});
