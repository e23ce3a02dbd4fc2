import { createServer, type IncomingMessage, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Expo push API (https://exp.host/--/api/v2/push/send and getReceipts),
 * speaking its protocol: a JSON array of messages in (gzip when the SDK compresses it), `{ data:
 * tickets[] }` out, one per message in order; receipts by id. Tokens containing "dead" are
 * refused at once with DeviceNotRegistered; tickets of tokens containing "gone" get a
 * DeviceNotRegistered receipt later.
 */
export interface FakeExpo {
  url: string;
  /** Every send request's messages, as received. */
  sends: { to: string; title?: string; body?: string; data?: Record<string, unknown> }[][];
  receiptRequests: string[][];
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  let raw = Buffer.concat(chunks);
  if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
  return JSON.parse(raw.toString('utf8'));
}

export async function startFakeExpo(): Promise<FakeExpo> {
  const ticketToken = new Map<string, string>();
  let seq = 0;
  const fake: Omit<FakeExpo, 'url' | 'close'> = { sends: [], receiptRequests: [], headers: [] };
  const server: Server = createServer((req, res) => {
    void (async () => {
      fake.headers.push(req.headers);
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/--/api/v2/push/send') {
        const messages = (await readBody(req)) as FakeExpo['sends'][number];
        fake.sends.push(messages);
        return reply(200, {
          data: messages.map((m) => {
            if (m.to.includes('dead')) return { status: 'error', message: `"${m.to}" is not a registered push notification recipient`, details: { error: 'DeviceNotRegistered', expoPushToken: m.to } };
            const id = `ticket-${++seq}`;
            ticketToken.set(id, m.to);
            return { status: 'ok', id };
          }),
        });
      }
      if (req.method === 'POST' && req.url === '/--/api/v2/push/getReceipts') {
        const { ids } = (await readBody(req)) as { ids: string[] };
        fake.receiptRequests.push(ids);
        const data: Record<string, unknown> = {};
        for (const id of ids) {
          const token = ticketToken.get(id);
          if (!token) continue;
          data[id] = token.includes('gone') ? { status: 'error', message: 'The device cannot receive push notifications anymore', details: { error: 'DeviceNotRegistered' } } : { status: 'ok' };
        }
        return reply(200, { data });
      }
      reply(404, { errors: [{ code: 'NOT_FOUND', message: 'Not found' }] });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
