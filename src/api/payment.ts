import { api, type ApiClient } from './client.ts';
import type { Payment, StartPayment } from '../../contract/payment.ts';

/** The payment calls (API.md "Greetie" payment calls, "Sandbox"), typed from contract/payment.ts. HTTP only. */

const path = (id: string, rest: string) => `/api/greetie/${encodeURIComponent(id)}${rest}`;

/**
 * POST /greetie/{id}/startpayment: without a payer, m-commerce (app link and QR code); with one,
 * e-commerce. `withdrawalConsent`: the buyer ticked the consent at review (without it the server
 * answers 400 CONSENT_REQUIRED).
 */
export function startPayment(
  greetieId: string,
  payerAlias: string | null,
  withdrawalConsent: boolean,
  signal?: AbortSignal,
  client: ApiClient = api,
): Promise<Payment> {
  const body: StartPayment = { ...(withdrawalConsent ? { withdrawalConsent: true as const } : {}), ...(payerAlias ? { payerAlias } : {}) };
  return client.post<Payment>(path(greetieId, '/startpayment'), body, { signal });
}

/** GET /greetie/{id}/payment: the latest payment (404 PAYMENT_NOT_FOUND before any). */
export function getPayment(greetieId: string, signal?: AbortSignal, client: ApiClient = api): Promise<Payment> {
  return client.get<Payment>(path(greetieId, '/payment'), { signal });
}

/** GET /sandbox/payments: the sandbox's pending payments, newest first. */
export function getSandboxPayments(signal?: AbortSignal, client: ApiClient = api): Promise<Payment[]> {
  return client.get<Payment[]>('/api/sandbox/payments', { signal });
}

export type SandboxOutcome = 'paid' | 'declined' | 'error' | 'cancelled' | 'timeout';

/** POST /sandbox/payments/{paymentId}: settle one as the payer would in Swish. */
export function settleSandboxPayment(paymentId: string, outcome: SandboxOutcome, signal?: AbortSignal, client: ApiClient = api): Promise<Payment> {
  return client.post<Payment>(`/api/sandbox/payments/${encodeURIComponent(paymentId)}`, { outcome }, { signal });
}
