import type { SandboxMerchant } from '../../../contract/merchant.ts';
import type { SandboxRefund } from '../../../contract/payment.ts';
import type { SandboxSms } from '../../../contract/sandbox.ts';
import { createLoader } from '../../../machines/loader.ts';
import { sandboxRefundsMachine, type RefundOutcome } from '../../../machines/sandboxRefunds.ts';
import { smsOutboxMachine } from '../../../machines/smsOutbox.ts';
import { getSandboxMerchants, getSandboxPush, getSandboxRefunds, getSandboxSms, settleSandboxRefund } from '../../api/sandbox.ts';
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

/** The pending refunds, read and settled through the sandbox's calls. */
export const sandboxRefunds = sandboxRefundsMachine.provide({
  actors: {
    readRefunds: fromCall<SandboxRefund[]>(({ signal }) => getSandboxRefunds(signal)),
    settleRefund: fromCall<SandboxRefund, { refundId: string; outcome: RefundOutcome }>(({ input, signal }) =>
      settleSandboxRefund(input.refundId, input.outcome, signal),
    ),
  },
});
