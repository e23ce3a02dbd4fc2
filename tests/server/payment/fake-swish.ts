import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { randomBytes } from 'node:crypto';
import type { TestPki } from './test-ca.ts';

/**
 * A local stand-in for Swish's Commerce API as its merchant integration guide documents it,
 * over HTTPS with a test CA and a required client certificate (mTLS):
 * - PUT /api/v2/paymentrequests/{instructionUUID} (32 upper-case hex): JSON body checked field by
 *   field; 201 with Location (and PaymentRequestToken for m-commerce, i.e. without payerAlias);
 *   422 with a JSON array of { errorCode, errorMessage } — RP01 payee, PA02 amount, AM03
 *   currency, RP03 callback URL, FF08 reference, RP02 message, BE18 payer alias, RP06 the payer
 *   already has a pending request, RP09 the instruction UUID is taken;
 * - GET /api/v1/paymentrequests/{id}: the request (status CREATED, PAID, DECLINED, ERROR,
 *   CANCELLED; errorCode, …), 404 when unknown;
 * - PATCH /api/v1/paymentrequests/{id} with application/json-patch+json
 *   [{"op":"replace","path":"/status","value":"cancelled"}]: 200 with the cancelled request; 422
 *   when it is no longer pending; 415/400 for another content type or body.
 * - PUT /api/v2/refunds/{instructionUUID}: JSON originalPaymentReference (a PAID request's
 *   paymentReference, else RF02), callbackUrl (RP03), payerAlias (the original payee, else RF03),
 *   amount (PA02; more than what is left of the payment to refund: RF08), currency (AM03),
 *   message (RP02), payerPaymentReference (FF08); 201 with Location; 409 for an instruction UUID
 *   already used;
 * - GET /api/v1/refunds/{id}: the refund (status CREATED, DEBITED, PAID, ERROR), 404 when unknown.
 * `script` makes the next answers misbehave: 503, an answer that comes too late (before or after
 * the request is stored), 401.
 */
export type SwishBehaviour = 'normal' | 'server-error' | 'slow' | 'slow-after-store' | 'unauthorized';

export interface SwishRecord {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
  /** The CN of the client certificate the call was made with. */
  clientCn: string | undefined;
}

export interface StoredRequest {
  id: string;
  payeePaymentReference: string | null;
  paymentReference: string | null;
  callbackUrl: string;
  payerAlias: string | null;
  payeeAlias: string;
  amount: number;
  currency: 'SEK';
  message: string | null;
  status: 'CREATED' | 'PAID' | 'DECLINED' | 'ERROR' | 'CANCELLED';
  dateCreated: string;
  datePaid: string | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface StoredRefund {
  id: string;
  payerPaymentReference: string | null;
  originalPaymentReference: string;
  paymentReference: string | null;
  callbackUrl: string;
  payerAlias: string;
  amount: number;
  currency: 'SEK';
  message: string | null;
  status: 'CREATED' | 'DEBITED' | 'PAID' | 'ERROR';
  dateCreated: string;
  datePaid: string | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export interface FakeSwish {
  url: string;
  refunds: Map<string, StoredRefund>;
  /** Moves a stored refund on, as Swish would. */
  settleRefund(id: string, status: StoredRefund['status'], errorCode?: string | null): void;
  requests: SwishRecord[];
  /** What the next requests get, in order; the last one repeats. */
  script: SwishBehaviour[];
  store: Map<string, StoredRequest & { token: string | null }>;
  /** Moves a stored request on, as the payer or Swish would. */
  settle(id: string, status: StoredRequest['status'], errorCode?: string | null): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
  });
}

const ERRORS: Record<string, string> = {
  RP01: 'Missing Merchant Swish Number',
  PA02: 'Amount value is missing or not a valid number',
  AM03: 'Invalid or missing Currency',
  RP03: 'Callback URL is missing or does not use HTTPS',
  FF08: 'PaymentReference is invalid',
  RP02: 'Wrong formated message',
  BE18: 'Payer alias is invalid',
  RP06: 'A payment request already exists for that payer',
  RP09: 'The given instructionUUID is not available',
  RP07: 'Transaction status not valid for cancellation',
  RF02: 'Original Payment not found or original payment is more than 13 months old',
  RF03: 'Payer alias in the refund does not match the payee alias in the original payment',
  RF08: 'Amount value is too large, or amount exceeds the amount of the original payment minus any previous refunds',
};

export async function startFakeSwish(pki: TestPki, opts: { payeeAlias?: string } = {}): Promise<FakeSwish> {
  const payeeAlias = opts.payeeAlias ?? '1231181189';
  const store: FakeSwish['store'] = new Map();
  const refunds: FakeSwish['refunds'] = new Map();
  const fake = { requests: [] as SwishRecord[], script: ['normal'] as SwishBehaviour[], store, refunds };
  const timers = new Set<NodeJS.Timeout>();

  const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(value === undefined ? undefined : JSON.stringify(value));
  };
  const refuse = (res: ServerResponse, codes: string[]) => json(res, 422, codes.map((errorCode) => ({ errorCode, errorMessage: ERRORS[errorCode] ?? errorCode, additionalInformation: null })));
  const publicView = ({ token: _token, ...rest }: StoredRequest & { token: string | null }): StoredRequest => rest;

  function create(id: string, body: string, res: ServerResponse, host: string, late: boolean) {
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return json(res, 400, undefined);
    }
    const codes: string[] = [];
    if (input.payeeAlias !== payeeAlias) codes.push('RP01');
    if (typeof input.amount !== 'string' || !/^\d{1,13}\.\d{2}$/.test(input.amount) || Number(input.amount) < 1) codes.push('PA02');
    if (input.currency !== 'SEK') codes.push('AM03');
    if (typeof input.callbackUrl !== 'string' || !/^https:\/\/[^/:]+(:443)?\//.test(input.callbackUrl)) codes.push('RP03');
    if (input.payeePaymentReference !== undefined && (typeof input.payeePaymentReference !== 'string' || !/^[A-Za-z0-9-]{1,35}$/.test(input.payeePaymentReference))) codes.push('FF08');
    if (input.message !== undefined && (typeof input.message !== 'string' || input.message.length > 50)) codes.push('RP02');
    if (input.payerAlias !== undefined && (typeof input.payerAlias !== 'string' || !/^46\d{8,11}$/.test(input.payerAlias))) codes.push('BE18');
    if (codes.length > 0) return refuse(res, codes);
    if (store.has(id)) return refuse(res, ['RP09']);
    const payerAlias = (input.payerAlias as string | undefined) ?? null;
    if (payerAlias && [...store.values()].some((r) => r.payerAlias === payerAlias && r.status === 'CREATED')) return refuse(res, ['RP06']);
    const token = payerAlias ? null : randomBytes(16).toString('hex');
    store.set(id, {
      id,
      payeePaymentReference: (input.payeePaymentReference as string | undefined) ?? null,
      paymentReference: null,
      callbackUrl: input.callbackUrl as string,
      payerAlias,
      payeeAlias,
      amount: Number(input.amount),
      currency: 'SEK',
      message: (input.message as string | undefined) ?? null,
      status: 'CREATED',
      dateCreated: new Date().toISOString(),
      datePaid: null,
      errorCode: null,
      errorMessage: null,
      token,
    });
    const answer = () => json(res, 201, undefined, { location: `https://${host}/swish-cpcapi/api/v1/paymentrequests/${id}`, ...(token ? { paymentrequesttoken: token } : {}) });
    if (!late) return answer();
    const timer = setTimeout(answer, 5_000);
    timers.add(timer);
    res.on('close', () => clearTimeout(timer));
  }

  function createRefund(id: string, body: string, res: ServerResponse, host: string) {
    let input: Record<string, unknown>;
    try {
      input = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return json(res, 400, undefined);
    }
    if (refunds.has(id)) return json(res, 409, undefined);
    const codes: string[] = [];
    if (typeof input.amount !== 'string' || !/^\d{1,13}\.\d{2}$/.test(input.amount) || Number(input.amount) < 1) codes.push('PA02');
    if (input.currency !== 'SEK') codes.push('AM03');
    if (typeof input.callbackUrl !== 'string' || !/^https:\/\/[^/:]+(:443)?\//.test(input.callbackUrl)) codes.push('RP03');
    if (input.payerPaymentReference !== undefined && (typeof input.payerPaymentReference !== 'string' || !/^[A-Za-z0-9-]{1,35}$/.test(input.payerPaymentReference))) codes.push('FF08');
    if (input.message !== undefined && (typeof input.message !== 'string' || input.message.length > 50)) codes.push('RP02');
    if (codes.length > 0) return refuse(res, codes);
    const original = [...store.values()].find((r) => r.status === 'PAID' && r.paymentReference !== null && r.paymentReference === input.originalPaymentReference);
    if (!original) return refuse(res, ['RF02']);
    if (input.payerAlias !== original.payeeAlias) return refuse(res, ['RF03']);
    const refunded = [...refunds.values()].filter((r) => r.originalPaymentReference === original.paymentReference && r.status !== 'ERROR').reduce((sum, r) => sum + r.amount, 0);
    if (Math.round((refunded + Number(input.amount)) * 100) > Math.round(original.amount * 100)) return refuse(res, ['RF08']);
    refunds.set(id, {
      id,
      payerPaymentReference: (input.payerPaymentReference as string | undefined) ?? null,
      originalPaymentReference: original.paymentReference!,
      paymentReference: null,
      callbackUrl: input.callbackUrl as string,
      payerAlias: input.payerAlias as string,
      amount: Number(input.amount),
      currency: 'SEK',
      message: (input.message as string | undefined) ?? null,
      status: 'CREATED',
      dateCreated: new Date().toISOString(),
      datePaid: null,
      errorCode: null,
      errorMessage: null,
    });
    return json(res, 201, undefined, { location: `https://${host}/swish-cpcapi/api/v1/refunds/${id}` });
  }

  const server: Server = createServer({ key: pki.server.keyPem, cert: pki.server.certPem, ca: pki.caPem, requestCert: true, rejectUnauthorized: true }, async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? '').replace(/^\/swish-cpcapi/, '');
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    fake.requests.push({ method: req.method ?? '', path, contentType: req.headers['content-type'], body, clientCn: [peer?.subject?.CN].flat()[0] });
    const behaviour = fake.script.length > 1 ? fake.script.shift()! : fake.script[0]!;
    if (behaviour === 'server-error') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      return res.end('Service Unavailable');
    }
    if (behaviour === 'unauthorized') {
      res.writeHead(401);
      return res.end();
    }
    if (behaviour === 'slow') {
      const timer = setTimeout(() => json(res, 500, undefined), 5_000);
      timers.add(timer);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    const r = /^\/api\/(v1|v2)\/refunds\/([^/?]+)$/.exec(path);
    if (r) {
      const [, version, id] = r as unknown as [string, string, string];
      if (req.method === 'PUT' && version === 'v2') {
        if (!/^[0-9A-F]{32}$/.test(id)) return json(res, 404, undefined);
        if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return json(res, 415, undefined);
        return createRefund(id, body, res, req.headers.host ?? 'localhost');
      }
      if (req.method === 'GET' && version === 'v1') {
        const found = refunds.get(id);
        return found ? json(res, 200, found) : json(res, 404, undefined);
      }
      return json(res, 405, undefined);
    }
    const m = /^\/api\/(v1|v2)\/paymentrequests\/([^/?]+)$/.exec(path);
    if (!m) return json(res, 404, undefined);
    const [, version, id] = m as unknown as [string, string, string];
    if (req.method === 'PUT' && version === 'v2') {
      if (!/^[0-9A-F]{32}$/.test(id)) return json(res, 404, undefined);
      if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return json(res, 415, undefined);
      return create(id, body, res, req.headers.host ?? 'localhost', behaviour === 'slow-after-store');
    }
    const found = store.get(id);
    if (req.method === 'GET' && version === 'v1') {
      return found ? json(res, 200, publicView(found)) : json(res, 404, undefined);
    }
    if (req.method === 'PATCH' && version === 'v1') {
      if (req.headers['content-type'] !== 'application/json-patch+json') return json(res, 415, undefined);
      if (body !== JSON.stringify([{ op: 'replace', path: '/status', value: 'cancelled' }])) return json(res, 400, undefined);
      if (!found) return json(res, 404, undefined);
      if (found.status !== 'CREATED') return refuse(res, ['RP07']);
      found.status = 'CANCELLED';
      return json(res, 200, publicView(found));
    }
    return json(res, 405, undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `https://127.0.0.1:${port}/swish-cpcapi`,
    settle(id: string, status: StoredRequest['status'], errorCode: string | null = null) {
      const r = store.get(id);
      if (!r) throw new Error(`fake Swish has no request ${id}`);
      r.status = status;
      r.errorCode = errorCode;
      r.errorMessage = errorCode;
      if (status === 'PAID') {
        r.paymentReference = randomBytes(16).toString('hex').toUpperCase();
        r.datePaid = new Date().toISOString();
      }
    },
    settleRefund(id: string, status: StoredRefund['status'], errorCode: string | null = null) {
      const r = refunds.get(id);
      if (!r) throw new Error(`fake Swish has no refund ${id}`);
      r.status = status;
      r.errorCode = errorCode;
      r.errorMessage = errorCode;
      if (status === 'PAID') {
        r.paymentReference = randomBytes(16).toString('hex').toUpperCase();
        r.datePaid = new Date().toISOString();
      }
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as FakeSwish;
}
