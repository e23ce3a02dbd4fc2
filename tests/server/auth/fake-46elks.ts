import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for 46elks' SMS API as documented (https://46elks.com/docs/send-sms):
 * POST /a1/sms, HTTP Basic auth with the API username and password, form-encoded `from`, `to`,
 * `message`; 200 with JSON `{ id, status: "created", from, to, message, ... }`; 401 for bad
 * credentials; 402 when the account has no credit; 5xx on its own trouble.
 */
export type ElksBehaviour = 'ok' | 'no-credit' | 'server-error' | 'slow' | 'bad-request';

export interface ElksRequest {
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

/** A message the fake accepted, as its history (GET /a1/sms) lists it. */
export interface ElksSent {
  id: string;
  created: string;
  direction: 'outgoing';
  from: string;
  to: string;
  message: string;
  status: 'delivered';
}

export interface FakeElks {
  url: string;
  requests: ElksRequest[];
  /** Accepted messages, oldest first (https://46elks.com/docs/sms-history lists them newest first). */
  sent: ElksSent[];
  /** What the next requests get, in order; the last one repeats. */
  script: ElksBehaviour[];
  close(): Promise<void>;
}

export const ELKS_USER = 'u0123456789abcdef';
export const ELKS_PASSWORD = 'secret-api-password';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
  });
}

export async function startFakeElks(): Promise<FakeElks> {
  const fake: Omit<FakeElks, 'url' | 'close'> = { requests: [], sent: [], script: ['ok'] };
  const pending = new Set<NodeJS.Timeout>();
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(body));
    fake.requests.push({ authorization: req.headers.authorization, contentType: req.headers['content-type'], form });
    const behaviour = fake.script.length > 1 ? fake.script.shift()! : fake.script[0]!;
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const at = new URL(req.url ?? '/', 'http://fake');
    const history = req.method === 'GET' && at.pathname === '/a1/sms';
    if (!history && (req.method !== 'POST' || req.url !== '/a1/sms')) return json(404, { error: 'not found' });
    const expected = `Basic ${Buffer.from(`${ELKS_USER}:${ELKS_PASSWORD}`).toString('base64')}`;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return res.end('API access requires Basic HTTP authentication. Read documentation or examples.');
    }
    if (history) {
      // SMS history: newest first, `to` filters on the recipient, `limit` (at most 100) per page.
      const to = at.searchParams.get('to');
      const limit = Math.min(100, Number(at.searchParams.get('limit') ?? 100) || 100);
      const all = fake.sent.filter((m) => !to || m.to === to).reverse();
      const page = all.slice(0, limit);
      return json(200, { data: page, ...(all.length > limit ? { next: page[page.length - 1]!.created } : {}) });
    }
    if (!form.from || !form.to || !form.message || !/^\+\d{8,15}$/.test(form.to)) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      return res.end('Missing key to');
    }
    switch (behaviour) {
      case 'no-credit':
        res.writeHead(402, { 'content-type': 'text/plain' });
        return res.end('Not enough credits to send message.');
      case 'server-error':
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('Service Unavailable');
      case 'bad-request':
        res.writeHead(400, { 'content-type': 'text/plain' });
        return res.end('Invalid to');
      case 'slow': {
        // Answers far too late; the client must have given up by then.
        const timer = setTimeout(() => json(200, { id: 'late', status: 'created' }), 5_000);
        pending.add(timer);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      default: {
        const id = `s${Math.random().toString(16).slice(2)}`;
        const created = new Date().toISOString();
        fake.sent.push({ id, created, direction: 'outgoing', from: form.from, to: form.to, message: form.message, status: 'delivered' });
        return json(200, {
          status: 'created',
          direction: 'outgoing',
          from: form.from,
          to: form.to,
          message: form.message,
          id,
          created,
          parts: 1,
          cost: 3500,
          estimated_cost: 3500,
        });
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const t of pending) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as FakeElks;
}
