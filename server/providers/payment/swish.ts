import { Agent, request } from 'node:https';
import {
  INSTRUCTION_ID,
  PaymentError,
  kronorString,
  mapSwishStatus,
  swishPayerAlias,
  mapSwishRefundStatus,
  type CreatePaymentRequest,
  type CreateRefundRequest,
  type CreatedPaymentRequest,
  type PaymentProvider,
  type PaymentState,
  type RefundState,
} from './provider.ts';

/**
 * Swish's Commerce API (Swish för handel), as its merchant integration guide documents it:
 * - create: PUT {base}/api/v2/paymentrequests/{instructionUUID} with JSON payeePaymentReference,
 *   callbackUrl, payeeAlias, currency "SEK", amount ("149.00"), message and, for e-commerce,
 *   payerAlias (46…). 201 with Location, plus PaymentRequestToken for m-commerce; 422 with a JSON
 *   array of { errorCode, errorMessage }.
 * - status: GET {base}/api/v1/paymentrequests/{id} → the request with status CREATED, PAID,
 *   DECLINED, ERROR or CANCELLED and errorCode (RF07, BANKIDCL, TM01, …).
 * - cancel: PATCH {base}/api/v1/paymentrequests/{id}, application/json-patch+json,
 *   [{"op":"replace","path":"/status","value":"cancelled"}].
 * - refund create: PUT {base}/api/v2/refunds/{instructionUUID} with JSON originalPaymentReference,
 *   callbackUrl, payerAlias (our Swish number: we pay the money back), amount, currency "SEK",
 *   message and payerPaymentReference. 201 with Location; 422 with error codes (RF02, RF03, RF08,
 *   AM04, …).
 * - refund status: GET {base}/api/v1/refunds/{id} → the refund with status CREATED, VALIDATED,
 *   DEBITED, PAID or ERROR. Swish calls the refund's callbackUrl when it ends.
 * Every call is made over mutual TLS: our client certificate (issued through Swish's certificate
 * management) and Swish's server checked against the CA we are given.
 *
 * Timeouts, network errors, 429 and 5xx are retried a bounded number of times with the same
 * request. That is safe for a create too: the instruction UUID is the request's name, so a PUT
 * with the same UUID can never make a second payment request; if an earlier attempt did reach
 * Swish, the retry is refused as a duplicate and the request is confirmed with a GET instead.
 */
export interface SwishOptions {
  /** https://cpc.getswish.net/swish-cpcapi (production) or MSS, the Merchant Swish Simulator. */
  baseUrl: string;
  /** The merchant's Swish number (123…). */
  payeeAlias: string;
  /** PEM: our client certificate (with its chain), its private key, and the CA(s) for Swish's server. */
  cert: string;
  key: string;
  passphrase?: string | undefined;
  ca: string;
  /** HTTPS on port 443 (Swish's rule; RP03 otherwise). */
  callbackUrl: string;
  /** Where Swish calls back about a refund (HTTPS on port 443 too). */
  refundCallbackUrl?: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  attempts?: number;
  /** Wait before attempt n+1 is backoffMs * n. */
  backoffMs?: number;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Swish's payment request as GET (and PATCH) answer it, and as its callback body carries it. */
export interface SwishPaymentRequest {
  id: string;
  payeePaymentReference?: string | null;
  paymentReference?: string | null;
  callbackUrl?: string;
  payerAlias?: string | null;
  payeeAlias?: string;
  amount?: number | string;
  currency?: string;
  message?: string | null;
  status: string;
  dateCreated?: string;
  datePaid?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/** Swish's refund as GET answers it, and as its callback body carries it. */
export interface SwishRefund {
  id: string;
  payerPaymentReference?: string | null;
  originalPaymentReference?: string | null;
  paymentReference?: string | null;
  callbackUrl?: string;
  payerAlias?: string;
  payeeAlias?: string | null;
  amount?: number | string;
  currency?: string;
  message?: string | null;
  status: string;
  dateCreated?: string;
  datePaid?: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}

export function refundStateFromSwish(body: SwishRefund): RefundState {
  const amount = body.amount === undefined ? null : Math.round(Number(body.amount) * 100);
  return {
    instructionId: body.id,
    status: mapSwishRefundStatus(body.status),
    providerStatus: body.status,
    errorCode: body.errorCode ?? null,
    amount: amount !== null && Number.isFinite(amount) ? amount : null,
    originalPaymentReference: body.originalPaymentReference ?? null,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const MESSAGE = /^[a-zA-Z0-9åäöÅÄÖéÉüÜ :;.,?!()"-]{0,50}$/;
const REFERENCE = /^[A-Za-z0-9-]{1,35}$/;

/** Swish only calls back to HTTPS on port 443. */
export function isSwishCallbackUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && (u.port === '' || u.port === '443');
  } catch {
    return false;
  }
}

export function stateFromSwish(body: SwishPaymentRequest): PaymentState {
  const amount = body.amount === undefined ? null : Math.round(Number(body.amount) * 100);
  return {
    instructionId: body.id,
    status: mapSwishStatus(body.status, body.errorCode),
    providerStatus: body.status,
    errorCode: body.errorCode ?? null,
    paymentReference: body.paymentReference ?? null,
    amount: amount !== null && Number.isFinite(amount) ? amount : null,
    datePaid: body.datePaid ?? null,
  };
}

function errorCodesOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.map((e: { errorCode?: unknown }) => (typeof e?.errorCode === 'string' ? e.errorCode : '')).filter((c) => /^[A-Z0-9]{2,20}$/.test(c));
  } catch {
    return [];
  }
}

export function createSwishPayments(opts: SwishOptions): PaymentProvider {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const attempts = Math.max(1, opts.attempts ?? 3);
  const backoffMs = opts.backoffMs ?? 300;
  const base = new URL(opts.baseUrl.replace(/\/+$/, '') + '/');
  const agent = new Agent({ cert: opts.cert, key: opts.key, passphrase: opts.passphrase, ca: opts.ca, keepAlive: true, maxSockets: 20 });

  function once(method: 'GET' | 'PUT' | 'PATCH', path: string, body?: { type: string; json: unknown }): Promise<Answer> {
    const url = new URL(path, base);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body.json));
    return new Promise<Answer>((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent,
          headers: {
            accept: 'application/json',
            ...(payload ? { 'content-type': body!.type, 'content-length': String(payload.length) } : {}),
          },
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', (err) => {
        const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
        reject(new PaymentError('unavailable', timedOut ? `Swish did not answer within ${timeoutMs} ms` : `Swish could not be reached (${(err as NodeJS.ErrnoException).code ?? err.message})`));
      });
      req.end(payload);
    });
  }

  /** One call with bounded retries of what may pass: no answer, 429 and 5xx. */
  async function call(method: 'GET' | 'PUT' | 'PATCH', path: string, body?: { type: string; json: unknown }): Promise<{ answer: Answer; retried: boolean }> {
    let last: PaymentError | undefined;
    for (let n = 1; n <= attempts; n++) {
      try {
        const answer = await once(method, path, body);
        if (answer.status >= 500 || answer.status === 429) throw new PaymentError('unavailable', `Swish answered ${answer.status}`, [], answer.status);
        return { answer, retried: n > 1 };
      } catch (err) {
        if (!(err instanceof PaymentError) || err.kind !== 'unavailable') throw err;
        last = err;
        if (n < attempts && backoffMs > 0) await sleep(backoffMs * n);
      }
    }
    throw last ?? new PaymentError('unavailable', 'Swish could not be reached');
  }

  function refused(answer: Answer, what: string): PaymentError {
    if (answer.status === 422) {
      const codes = errorCodesOf(answer.text);
      return new PaymentError('invalid', `Swish refused the ${what}: ${codes.join(', ') || 'no error code'}`, codes, 422);
    }
    if (answer.status === 404) return new PaymentError('notFound', `Swish has no such payment request (${what})`, [], 404);
    if (answer.status === 401 || answer.status === 403) {
      return new PaymentError('rejected', `Swish refused our client certificate or agreement (${answer.status})`, [], answer.status);
    }
    if (answer.status === 400 || answer.status === 415) return new PaymentError('invalid', `Swish could not read the ${what} (${answer.status})`, [], answer.status);
    return new PaymentError('rejected', `Swish refused the ${what} (${answer.status})`, [], answer.status);
  }

  function parseRequest(answer: Answer): SwishPaymentRequest {
    try {
      const body = JSON.parse(answer.text) as SwishPaymentRequest;
      if (typeof body?.id === 'string' && typeof body.status === 'string') return body;
    } catch {
      // falls through
    }
    throw new PaymentError('unavailable', `Swish answered ${answer.status} without a payment request`, [], answer.status);
  }

  const requestPath = (version: 'v1' | 'v2', id: string, what: 'paymentrequests' | 'refunds' = 'paymentrequests') => {
    if (!INSTRUCTION_ID.test(id)) throw new PaymentError('invalid', 'the instruction id must be 32 upper-case hex digits', ['RP04']);
    return `api/${version}/${what}/${id}`;
  };

  async function refundStatus(instructionId: string): Promise<RefundState> {
    const { answer } = await call('GET', requestPath('v1', instructionId, 'refunds'));
    if (answer.status !== 200) throw refused(answer, 'refund status request');
    let body: SwishRefund | undefined;
    try {
      body = JSON.parse(answer.text) as SwishRefund;
    } catch {
      body = undefined;
    }
    if (typeof body?.id !== 'string' || typeof body.status !== 'string') throw new PaymentError('unavailable', `Swish answered ${answer.status} without a refund`, [], answer.status);
    return refundStateFromSwish(body);
  }

  async function status(instructionId: string): Promise<PaymentState> {
    const { answer } = await call('GET', requestPath('v1', instructionId));
    if (answer.status !== 200) throw refused(answer, 'status request');
    return stateFromSwish(parseRequest(answer));
  }

  return {
    name: 'swish',

    async create(input: CreatePaymentRequest): Promise<CreatedPaymentRequest> {
      const path = requestPath('v2', input.instructionId);
      // Refused here, before anything is sent, with the codes Swish would answer.
      if (!isSwishCallbackUrl(opts.callbackUrl)) throw new PaymentError('invalid', 'the callback URL must be https:// on port 443 (PUBLIC_URL)', ['RP03']);
      if (!REFERENCE.test(input.reference)) throw new PaymentError('invalid', 'payeePaymentReference must be 1–35 of A–Z, a–z, 0–9 and "-"', ['FF08']);
      if (!MESSAGE.test(input.message)) throw new PaymentError('invalid', 'the message must be at most 50 of the characters Swish allows (see swishMessage)', ['RP02']);
      const json: Record<string, string> = {
        payeePaymentReference: input.reference,
        callbackUrl: opts.callbackUrl,
        payeeAlias: opts.payeeAlias,
        currency: 'SEK',
        amount: kronorString(input.amount),
        message: input.message,
      };
      if (input.payerAlias !== undefined) json.payerAlias = swishPayerAlias(input.payerAlias);

      const { answer } = await call('PUT', path, { type: 'application/json', json });
      if (answer.status === 201) {
        const location = typeof answer.headers.location === 'string' ? answer.headers.location : null;
        const token = answer.headers.paymentrequesttoken;
        return { instructionId: input.instructionId, location, token: typeof token === 'string' && token !== '' ? token : null };
      }
      // A duplicate instruction UUID: an earlier attempt (ours, perhaps before a crash) made it.
      // The id is ours alone, so if Swish has it with our amount and reference, it is this request.
      const codes = answer.status === 422 ? errorCodesOf(answer.text) : [];
      if (answer.status === 409 || codes.includes('RP09')) {
        const existing = await status(input.instructionId).catch(() => undefined);
        if (existing && existing.amount === input.amount) {
          return { instructionId: input.instructionId, location: new URL(`api/v1/paymentrequests/${input.instructionId}`, base).toString(), token: null };
        }
      }
      throw refused(answer, 'payment request');
    },

    status,

    refundStatus,

    async createRefund(input: CreateRefundRequest) {
      const path = requestPath('v2', input.instructionId, 'refunds');
      const callbackUrl = opts.refundCallbackUrl ?? opts.callbackUrl;
      if (!isSwishCallbackUrl(callbackUrl)) throw new PaymentError('invalid', 'the callback URL must be https:// on port 443 (PUBLIC_URL)', ['RP03']);
      if (!REFERENCE.test(input.reference)) throw new PaymentError('invalid', 'payerPaymentReference must be 1–35 of A–Z, a–z, 0–9 and "-"', ['FF08']);
      if (!MESSAGE.test(input.message)) throw new PaymentError('invalid', 'the message must be at most 50 of the characters Swish allows (see swishMessage)', ['RP02']);
      const json = {
        payerPaymentReference: input.reference,
        originalPaymentReference: input.originalPaymentReference,
        callbackUrl,
        payerAlias: opts.payeeAlias,
        amount: kronorString(input.amount),
        currency: 'SEK',
        message: input.message,
      };
      const { answer } = await call('PUT', path, { type: 'application/json', json });
      if (answer.status === 201) {
        return { instructionId: input.instructionId, location: typeof answer.headers.location === 'string' ? answer.headers.location : null };
      }
      // The instruction UUID is taken: an earlier attempt of ours (perhaps before a crash) made it.
      // It is this refund when Swish has it for our payment and amount.
      const codes = answer.status === 422 ? errorCodesOf(answer.text) : [];
      if (answer.status === 409 || codes.includes('RP09')) {
        const existing = await refundStatus(input.instructionId).catch(() => undefined);
        if (existing && existing.amount === input.amount && existing.originalPaymentReference === input.originalPaymentReference) {
          return { instructionId: input.instructionId, location: new URL(`api/v1/refunds/${input.instructionId}`, base).toString() };
        }
      }
      throw refused(answer, 'refund');
    },

    async cancel(instructionId: string): Promise<PaymentState> {
      const { answer } = await call('PATCH', requestPath('v1', instructionId), {
        type: 'application/json-patch+json',
        json: [{ op: 'replace', path: '/status', value: 'cancelled' }],
      });
      if (answer.status === 200) {
        try {
          return stateFromSwish(parseRequest(answer));
        } catch {
          return status(instructionId);
        }
      }
      if (answer.status === 422) {
        // Not cancellable: most often it was paid, declined or ended meanwhile. Say what it is.
        const now = await status(instructionId);
        if (now.status !== 'pending') return now;
      }
      throw refused(answer, 'cancellation');
    },
  };
}
