import { createParser } from 'eventsource-parser';
import { api, ApiError, type ApiClient } from './client.ts';
import { currentLanguage } from '../format/language.ts';
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

/**
 * GET /greetie/{id}/payment/events: the server's stream of the payment (server-sent events,
 * decision 116), read with fetch so it carries the bearer token (an EventSource cannot), its
 * events parsed by eventsource-parser. Calls `onPayment` for each; resolves when the server ends
 * the stream (a final status, or its time is up); rejects with an ApiError when it refuses it
 * (401, 404, 429) or the connection breaks. Aborting ends it quietly.
 */
export async function followPayment(greetieId: string, onPayment: (p: Payment) => void, signal: AbortSignal, client: ApiClient = api): Promise<void> {
  const url = `${client.baseUrl}${path(greetieId, '/payment/events')}`;
  const token = client.getToken();
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Accept-Language': currentLanguage() };
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal, credentials: 'omit', cache: 'no-store' });
  } catch {
    if (signal.aborted) return;
    throw new ApiError({ url, status: 0, statusText: '', body: undefined, language: currentLanguage() });
  }
  if (!res.ok || !res.body) {
    const body: unknown = await res.json().catch(() => undefined);
    throw new ApiError({ url, status: res.status, statusText: res.statusText, body, language: currentLanguage() });
  }
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === 'payment') onPayment(JSON.parse(e.data) as Payment);
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  } catch {
    if (signal.aborted) return;
    throw new ApiError({ url, status: 0, statusText: '', body: undefined, language: currentLanguage() });
  }
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
