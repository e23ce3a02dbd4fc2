import type { SandboxMerchant } from '../../../contract/merchant.ts';
import type { SandboxSms } from '../../../contract/sandbox.ts';
import { createLoader } from '../../../machines/loader.ts';
import { smsOutboxMachine } from '../../../machines/smsOutbox.ts';
import { getSandboxMerchants, getSandboxPush, getSandboxSms } from '../../api/sandbox.ts';
import { fromCall } from '../../components/flow.ts';

/** The sandbox page's machines with their real server calls (machine.provide). */

export const sandboxMerchantsLoader = createLoader<void, SandboxMerchant[]>().provide({
  actors: { load: fromCall<SandboxMerchant[], { params: void }>(({ signal }) => getSandboxMerchants(signal)) },
});

export const smsOutbox = smsOutboxMachine.provide({
  actors: { readOutbox: fromCall<SandboxSms[]>(({ signal }) => getSandboxSms(signal)) },
});

/**
 * The push outbox reads like the SMS outbox (the same machine, polling every few seconds): each
 * push shown as its title and body, `to` the device's Expo token or user:<id>.
 */
export const pushOutbox = smsOutboxMachine.provide({
  actors: {
    readOutbox: fromCall<SandboxSms[]>(async ({ signal }) =>
      (await getSandboxPush(signal)).map((p) => ({ to: p.to, body: `${p.title}\n${p.body}`, sentAt: p.sentAt })),
    ),
  },
});
