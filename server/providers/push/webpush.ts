import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import path from 'node:path';
import webpush from 'web-push';
import type { Db } from '../../db/index.ts';
import {
  AddressNotPublicError,
  checkEndpointUrl,
  isPublicAddress,
  ipLiteral,
  publicOnlyLookup,
  resolvesPublic,
  systemResolve,
  type AllowedHosts,
  type EndpointProblem,
  type Resolve,
} from './endpoint.ts';

/**
 * Web Push to browsers with the web-push library (decisions 092 and 095): one VAPID key pair for
 * every process (settings, or kept in the database), each message encrypted for the subscription
 * (aes128gcm) and posted only to an allowed push service's public address (endpoint.ts), by our
 * own request: no redirect is followed, and the address connected to is the one checked.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A DATA_DIR/vapid.json from before decision 095, when it holds a key pair. */
function readVapidFile(dataDir: string): VapidKeys | undefined {
  const file = path.join(dataDir, 'vapid.json');
  if (!existsSync(file)) return undefined;
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof saved.publicKey === 'string' && typeof saved.privateKey === 'string') return { publicKey: saved.publicKey, privateKey: saved.privateKey };
  } catch {
    // Unreadable: a new pair is made instead.
  }
  return undefined;
}

/**
 * The VAPID key pair every process on this database signs with: the settings' (VAPID_PUBLIC_KEY,
 * VAPID_PRIVATE_KEY) when given; otherwise the one row of `webpush_vapid` (migration 014). The
 * first process to find none writes one — adopting an older DATA_DIR/vapid.json if there is one,
 * so browsers subscribed before keep working, else a new pair — with ON CONFLICT DO NOTHING, and
 * every process reads back the row that won, so processes starting at once agree.
 */
export async function resolveVapidKeys(db: Db, opts: { keys?: VapidKeys; dataDir: string }): Promise<VapidKeys> {
  if (opts.keys) return opts.keys;
  const read = () => db.selectFrom('webpush_vapid').select(['public_key', 'private_key']).executeTakeFirst();
  let row = await read();
  if (!row) {
    const candidate = readVapidFile(opts.dataDir) ?? webpush.generateVAPIDKeys();
    await db
      .insertInto('webpush_vapid')
      .values({ public_key: candidate.publicKey, private_key: candidate.privateKey })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error('webpush_vapid: no key pair after writing one');
  return { publicKey: row.public_key, privateKey: row.private_key };
}

export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/**
 * sent; gone (404/410: the browser dropped it, delete it); refused (not a push service we post
 * to: its host is not allowed, delete it); blocked (its host resolved to an address that is not
 * public: nothing was sent, the subscription is kept, as DNS may answer differently later); or
 * failed (try again another time).
 */
export type WebPushOutcome = 'sent' | 'gone' | 'refused' | 'blocked' | 'failed';

export interface WebPushSender {
  readonly publicKey: string;
  /** Why this endpoint is refused at subscribe, or null when it is one we post to. */
  check(endpoint: string): Promise<EndpointProblem | null>;
  send(sub: WebPushSubscription, payload: Record<string, unknown>): Promise<WebPushOutcome>;
}

export interface WebPushSenderOptions {
  keys: VapidKeys;
  subject: string;
  /** WEBPUSH_ALLOWED_HOSTS: the push services' host names, or `*` for any public host. */
  allowedHosts: AllowedHosts;
  /** Extra certificate authorities to trust (PEM): the tests' fake push service. */
  ca?: string;
  /** Name → addresses; dns.lookup by default (tests give a fake resolver). */
  resolve?: Resolve;
  /** Which addresses may be connected to; public ones only by default (tests let their local fake through). */
  reachable?: (address: string) => boolean;
  timeoutMs?: number;
}

export function createWebPushSender(opts: WebPushSenderOptions): WebPushSender {
  const resolve = opts.resolve ?? systemResolve;
  const reachable = opts.reachable ?? isPublicAddress;
  // Every connection's host name is resolved through the check: an address that is not public is
  // never connected to, whatever the name answered at subscribe.
  const agent = new Agent({ lookup: publicOnlyLookup(resolve, reachable), ...(opts.ca ? { ca: opts.ca } : {}) });
  const timeoutMs = opts.timeoutMs ?? 10_000;

  return {
    publicKey: opts.keys.publicKey,
    async check(endpoint) {
      const checked = checkEndpointUrl(endpoint, opts.allowedHosts, reachable);
      if ('problem' in checked) return checked.problem;
      // Any host allowed: its name must resolve, to public addresses only, now as well as at send.
      if (opts.allowedHosts === '*' && ipLiteral(checked.url) === null && !(await resolvesPublic(checked.url.hostname, resolve, reachable))) return 'address';
      return null;
    },
    async send(sub, payload) {
      const checked = checkEndpointUrl(sub.endpoint, opts.allowedHosts, reachable);
      if ('problem' in checked) return checked.problem === 'address' ? 'blocked' : 'refused';
      const url = checked.url;
      try {
        // The request is built from the URL as checked (WHATWG), never re-parsed from the string.
        const details = webpush.generateRequestDetails({ endpoint: url.href, keys: sub.keys }, JSON.stringify(payload), {
          vapidDetails: { subject: opts.subject, publicKey: opts.keys.publicKey, privateKey: opts.keys.privateKey },
          TTL: 24 * 60 * 60,
          urgency: 'normal',
        });
        const status = await post(url, details.headers as Record<string, string | number>, details.body, agent, timeoutMs);
        if (status >= 200 && status < 300) return 'sent';
        // A redirect is not followed: a push service answers with 201.
        return status === 404 || status === 410 ? 'gone' : 'failed';
      } catch (err) {
        return err instanceof AddressNotPublicError ? 'blocked' : 'failed';
      }
    },
  };
}

/** One POST to the checked URL through the checking agent; resolves with the status. */
function post(url: URL, headers: Record<string, string | number>, body: Buffer | null, agent: Agent, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        method: 'POST',
        hostname: ipLiteral(url) ?? url.hostname,
        port: url.port === '' ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        headers,
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('web push: timed out')));
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
