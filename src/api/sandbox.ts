import { api } from './client.ts';
import type { SandboxMerchant } from '../../contract/merchant.ts';
import type { SandboxSms } from '../../contract/sandbox.ts';
import type { SandboxPush } from '../../contract/notification.ts';
import type { SandboxRefund, SandboxRefundSettle } from '../../contract/payment.ts';

/** The sandbox's calls (/api/sandbox: 404 everywhere when the server runs with SANDBOX=off). */

/** Whether the sandbox is on: GET /api/sandbox answers 200. Any failure counts as off. */
export async function isSandboxOn(signal?: AbortSignal): Promise<boolean> {
  try {
    await api.get<{ enabled: true }>('/api/sandbox', { signal });
    return true;
  } catch (err) {
    // Leaving the page is not an answer: let the caller see the abort.
    if (signal?.aborted) throw err;
    return false;
  }
}

/** The SMS the sandbox outbox kept instead of sending, newest first. */
export function getSandboxSms(signal?: AbortSignal): Promise<SandboxSms[]> {
  return api.get<SandboxSms[]>('/api/sandbox/sms', { signal });
}

/** The demo catalogue's merchant codes. */
export function getSandboxMerchants(signal?: AbortSignal): Promise<SandboxMerchant[]> {
  return api.get<SandboxMerchant[]>('/api/sandbox/merchants', { signal });
}

/** GET /sandbox/push: the pushes the sandbox outbox kept, newest first. */
export function getSandboxPush(signal?: AbortSignal): Promise<SandboxPush[]> {
  return api.get<SandboxPush[]>('/api/sandbox/push', { signal });
}

/** GET /sandbox/refunds: the sandbox's pending refunds, newest first. */
export function getSandboxRefunds(signal?: AbortSignal): Promise<SandboxRefund[]> {
  return api.get<SandboxRefund[]>('/api/sandbox/refunds', { signal });
}

/** POST /sandbox/refunds/{refundId}: settle one as Swish would ("paid" or "error"); answers the refund. */
export function settleSandboxRefund(refundId: string, outcome: SandboxRefundSettle['outcome'], signal?: AbortSignal): Promise<SandboxRefund> {
  return api.post<SandboxRefund>(`/api/sandbox/refunds/${encodeURIComponent(refundId)}`, { outcome } satisfies SandboxRefundSettle, { signal });
}
