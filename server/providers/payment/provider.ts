import { randomBytes } from 'node:crypto';
import type { ErrorCode } from '../../../contract/errors.ts';

/**
 * Taking a payment. Two implementations behind one interface: the sandbox (default; pending
 * requests kept in PostgreSQL and settled by a person on /sandbox) and Swish's Commerce API
 * (server/providers/payment/swish.ts). Both speak Swish's model — a payment request named by an
 * instruction id the merchant chooses, with Swish's statuses and error codes — and callers see
 * only ours: `PaymentState` and `PaymentError`. See docs/decisions/080-payment-provider.md.
 */

/** API.md's Payment.status. `created` is ours alone (a row written before the provider is asked). */
export type PaymentStatus = 'created' | 'pending' | 'paid' | 'declined' | 'error' | 'cancelled' | 'expired';

/** Swish's payment request statuses (GET /api/v1/paymentrequests/{id} and the callback). */
export type SwishStatus = 'CREATED' | 'PAID' | 'DECLINED' | 'ERROR' | 'CANCELLED';

export interface CreatePaymentRequest {
  /**
   * The idempotency key: 32 upper-case hex digits (`newInstructionId()`), chosen and stored by the
   * caller before the provider is asked. Asking again with the same id is the same request.
   */
  instructionId: string;
  /** Öre, > 0. Sent to Swish as kronor with two decimals ("149.00"). */
  amount: number;
  /** Ours, shown in the merchant's reports: ≤ 35 of A–Z, a–z, 0–9 and "-". */
  reference: string;
  /** Shown to the payer in the Swish app: ≤ 50 characters of Swish's allowed set. */
  message: string;
  /**
   * The e-commerce flow: the payer's mobile number in E.164 (+46…); the request pops up in that
   * number's Swish app. Left out: the m-commerce flow (a token for the app link or QR code).
   */
  payerAlias?: string;
}

export interface CreatedPaymentRequest {
  instructionId: string;
  /** Swish's Location header: the request's address at Swish (a pseudo address in the sandbox). */
  location: string | null;
  /**
   * The m-commerce token (PaymentRequestToken), for `swishAppUrl` and `swishQrSvg`. Null for
   * e-commerce, and when a retried create found its request already made (the token is only in
   * the first answer; the caller then cancels and makes a new one if it needs a token).
   */
  token: string | null;
}

/** What the provider says of a request now, in our terms, with Swish's own words kept. */
export interface PaymentState {
  instructionId: string;
  status: Exclude<PaymentStatus, 'created'>;
  /** Swish's status as it answered (CREATED, PAID, …). */
  providerStatus: SwishStatus | string;
  /** Swish's errorCode (RF07, BANKIDCL, TM01, …), or null. */
  errorCode: string | null;
  /** Swish's payment reference at the bank, once paid. */
  paymentReference: string | null;
  amount: number | null;
  datePaid: string | null;
}

/**
 * Why a call failed, as far as the caller needs to know:
 * - `invalid`: we sent something Swish refuses (our data or our set-up: 422, RP03 …) — `codes`
 *   holds Swish's error codes, each with a message in server/i18n (`paymentErrorMessageCode`);
 * - `unavailable`: no answer, a timeout or 5xx, also after retries (→ try again later);
 * - `notFound`: no such payment request at the provider (404);
 * - `rejected`: the provider refused us (401/403: certificate or agreement; other 4xx).
 */
export class PaymentError extends Error {
  constructor(
    readonly kind: 'invalid' | 'unavailable' | 'notFound' | 'rejected',
    message: string,
    readonly codes: readonly string[] = [],
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentError';
  }
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'swish';
  /** Creates the payment request (PUT, idempotent on instructionId). Throws PaymentError. */
  create(request: CreatePaymentRequest): Promise<CreatedPaymentRequest>;
  /** Asks for the request's status. Throws PaymentError (notFound, unavailable, …). */
  status(instructionId: string): Promise<PaymentState>;
  /**
   * Cancels a pending request. A request that is no longer pending (paid meanwhile, declined…)
   * is not an error: its state is returned, and the caller acts on it (a paid one stays paid).
   */
  cancel(instructionId: string): Promise<PaymentState>;
  /**
   * Creates a refund of a paid payment (PUT, idempotent on instructionId: asking again with the
   * same id is the same refund, also after a crash between the provider's answer and our write).
   * Throws PaymentError.
   */
  createRefund(request: CreateRefundRequest): Promise<{ instructionId: string; location: string | null }>;
  /** Asks for the refund's status. Throws PaymentError (notFound, unavailable, …). */
  refundStatus(instructionId: string): Promise<RefundState>;
}

/** Swish's refund statuses (GET /api/v1/refunds/{id} and the callback). */
export type SwishRefundStatus = 'CREATED' | 'VALIDATED' | 'DEBITED' | 'PAID' | 'ERROR';

export interface CreateRefundRequest {
  /** 32 upper-case hex digits, chosen and stored by the caller before the provider is asked. */
  instructionId: string;
  /** Swish's paymentReference of the payment paid (PaymentState.paymentReference). */
  originalPaymentReference: string;
  /** Öre, > 0: at most what was paid. */
  amount: number;
  /** Ours: ≤ 35 of A–Z, a–z, 0–9 and "-" (payerPaymentReference). */
  reference: string;
  /** Shown to the payer of the original payment: ≤ 50 characters of Swish's allowed set. */
  message: string;
}

/** What the provider says of a refund now, in our terms, with Swish's own words kept. */
export interface RefundState {
  instructionId: string;
  status: 'pending' | 'paid' | 'error';
  providerStatus: SwishRefundStatus | string;
  errorCode: string | null;
  amount: number | null;
  originalPaymentReference: string | null;
}

/**
 * Swish's refund status → ours: PAID → paid; ERROR → error; CREATED, VALIDATED, DEBITED (money on
 * its way) and anything we do not know → pending (never acted on).
 */
export function mapSwishRefundStatus(status: string): RefundState['status'] {
  if (status === 'PAID') return 'paid';
  if (status === 'ERROR') return 'error';
  return 'pending';
}

/** Where Swish (or the sandbox) calls us back about a refund: PUBLIC_URL + /api/greetie/refundCallBack. */
export function refundCallbackUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/greetie/refundCallBack`;
}

/** 32 upper-case hex digits (a v4 UUID without dashes), as Swish wants an instructionUUID. */
export function newInstructionId(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  return b.toString('hex').toUpperCase();
}

export const INSTRUCTION_ID = /^[0-9A-F]{32}$/;

/** Öre → Swish's amount string: 14900 → "149.00". */
export function kronorString(ore: number): string {
  if (!Number.isSafeInteger(ore) || ore <= 0) throw new PaymentError('invalid', `amount must be a positive whole number of öre (got ${ore})`, ['PA02']);
  return `${Math.floor(ore / 100)}.${String(ore % 100).padStart(2, '0')}`;
}

/** A Swedish mobile number in E.164 → Swish's alias: "+46701234567" → "46701234567". */
export function swishPayerAlias(e164: string): string {
  if (!/^\+467\d{8}$/.test(e164)) throw new PaymentError('invalid', 'the payer must be a Swedish mobile number (+467…)', ['BE18']);
  return e164.slice(1);
}

/**
 * Swish's answer → our status (decision 080):
 * PAID → paid; DECLINED (RF07 or none) → declined; CANCELLED, or ERROR with BANKIDCL → cancelled;
 * ERROR with TM01 → expired; any other ERROR → error; CREATED → pending.
 * A status we do not know is kept pending: we never act on an answer we do not understand.
 */
export function mapSwishStatus(status: string, errorCode: string | null | undefined): PaymentState['status'] {
  switch (status) {
    case 'PAID':
      return 'paid';
    case 'DECLINED':
      return 'declined';
    case 'CANCELLED':
      return 'cancelled';
    case 'ERROR':
      if (errorCode === 'BANKIDCL') return 'cancelled';
      if (errorCode === 'TM01') return 'expired';
      return 'error';
    default:
      return 'pending';
  }
}

/** Every Swish error code we give a message for (server/providers/payment/messages.ts). */
export const SWISH_ERROR_CODES = [
  'FF08', 'RP01', 'RP02', 'RP03', 'RP04', 'RP06', 'RP08', 'RP09', 'ACMT01', 'ACMT03', 'ACMT07',
  'AM02', 'AM03', 'AM06', 'AM21', 'BE18', 'PA02', 'RF07', 'BANKIDCL', 'BANKIDONGOING', 'BANKIDUNKN',
  'TM01', 'DS24', 'VR01', 'VR02',
  // Refunds: original payment not found (or older than 13 months), payer alias not the original
  // payee, amount more than what is left to refund, insufficient funds on the merchant's account.
  'RF02', 'RF03', 'RF08', 'AM04',
] as const;

export type SwishErrorCode = (typeof SWISH_ERROR_CODES)[number];

/** True when `code` is one of the Swish error codes we give a message for. */
export function isSwishErrorCode(code: string | null | undefined): code is SwishErrorCode {
  return typeof code === 'string' && (SWISH_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * The API error code for a Swish error code (`PAYMENT_RP06`), or the general one for a code we do
 * not know. Each `PAYMENT_{code}` must be in contract/errors.ts, or this does not compile.
 */
export function paymentErrorMessageCode(swishCode: string | null | undefined): ErrorCode {
  return isSwishErrorCode(swishCode) ? (`PAYMENT_${swishCode}` as const) : 'PAYMENT_FAILED';
}

/** Where Swish (or the sandbox) calls us back: PUBLIC_URL + /api/greetie/paymentCallBack. */
export function paymentCallbackUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/api/greetie/paymentCallBack`;
}

/** Swish's allowed message characters; anything else becomes a space, and the text is cut to 50. */
export function swishMessage(text: string): string {
  return text
    .replace(/[^a-zA-Z0-9åäöÅÄÖéÉüÜ :;.,?!()"-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 50)
    .trim();
}
