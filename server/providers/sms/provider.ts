/**
 * Sending an SMS. Two implementations: the sandbox outbox (default; GET /api/sandbox/sms reads
 * it) and 46elks (server/providers/sms/elks.ts). Callers never see provider details: a send
 * either resolves or throws SmsError.
 */
export interface SmsMessage {
  /** E.164. */
  to: string;
  body: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
  /**
   * Whether this exact message was sent, for a provider that keeps a record it can be asked
   * (the sandbox outbox). Delivery asks it about a send that was interrupted (server/delivery).
   */
  confirmSent?(message: SmsMessage): Promise<boolean>;
}

/**
 * Why a send failed, as far as the caller needs to know:
 * - `unavailable`: the gateway did not answer or answered 5xx, also after retries (→ 503);
 * - `rejected`: the gateway refused us (credentials, no credit, a bad request) (→ 502).
 * The message never contains the SMS text (it may hold a code).
 */
export class SmsError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'rejected',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SmsError';
  }
}
