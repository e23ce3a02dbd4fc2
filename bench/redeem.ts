import http from 'node:http';
import autocannon from 'autocannon';

/**
 * Redeems at the till: POST /api/voucher/redeem with the right merchant code, each
 * request a different voucher, so every request is a real redeem (one conditional UPDATE, its
 * attempt recorded) and none is the cheap 409 of a voucher already used. Targets: ≥ 500 redeems/s
 * on this machine (closed loop at saturation), p99 ≤ 50 ms at 500 redeems/s offered.
 *
 * The vouchers are made the way the product makes them, over HTTP: senders sign in, send greeties
 * with 10 gifts each (fixed-price InStore products of several demo merchants, so several merchant
 * codes are checked) to a few recipients, pay in the sandbox, and the server's delivery worker
 * delivers them. Senders keep inside the sending limits (3 greeties to one number, 20 a day).
 *
 * Partial redemptions (issue 25, `partial: true`): the gifts are the demo merchants' InStore
 * *value* products (min/max), each at twice its minimum, and each request takes half of its
 * voucher's amount (`amount` in the body), so every redeem is a real partial one that leaves a
 * balance; afterwards every voucher's balance is checked to be exactly the other half.
 */

/** One run: each of its vouchers redeemed once. */
export interface RedeemRun {
  vouchers: number;
  connections: number;
  /** The offered rate (redeems per second over all connections), or null: as fast as answered. */
  offeredPerSec: number | null;
  /** From the first request sent to the last answer (autocannon's own duration ends on a whole-second tick). */
  seconds: number;
  redeemsPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Answers other than 200 (each voucher is redeemed once, so any is a failure). */
  non2xx: number;
  errors: number;
}

export interface RedeemBenchResult extends RedeemRun {
  available: true;
  /** Each request took half of its value voucher's amount. */
  partial: boolean;
  /** Partial runs: vouchers whose balance afterwards is not exactly amount − taken (any is a failure). */
  wrongBalances: number;
  merchants: number;
  /** The same server, right after: fresh vouchers offered at a fixed rate (the p99 target's load). */
  atRate: RedeemRun;
  prepareSeconds: number;
}

export interface Prepared {
  /** `amount`: öre to take (partial redemptions); absent: the whole voucher. */
  vouchers: { voucherId: string; merchantCode: string; token: string; amount?: number }[];
  merchants: number;
  recipients: { token: string }[];
}

const GIFTS_PER_GREETIE = 10;
const PER_RECIPIENT = 3;
const RECIPIENTS = 4;

let callers = 0;
/** A fresh person (their own number and caller address), signed in through the sandbox SMS. */
async function signIn(baseUrl: string): Promise<{ token: string; mobileNumber: string }> {
  callers += 1;
  const mobileNumber = `+4676${String(callers).padStart(7, '0')}`;
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': `10.76.${(callers >> 8) & 255}.${callers & 255}` };
  const { token } = await json<{ token: string }>(
    await fetch(`${baseUrl}/api/auth/verificationcode`, { method: 'POST', headers, body: JSON.stringify({ mobileNumber }) }),
    'POST /api/auth/verificationcode',
  );
  const sms = await json<{ body: string }[]>(await fetch(`${baseUrl}/api/sandbox/sms?to=${encodeURIComponent(mobileNumber)}`), 'GET /api/sandbox/sms');
  const code = sms.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean);
  const login = await json<{ token: string }>(
    await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ token, code, deviceId: '00000000-0000-0000-0000-000000000000' }) }),
    'POST /api/auth/login',
  );
  return { token: login.token, mobileNumber };
}

async function json<T>(res: Response, what: string): Promise<T> {
  if (res.status !== 200) throw new Error(`${what} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return (await res.json()) as T;
}

/** Runs `fn` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(fn))));
  return out;
}

export async function prepare(baseUrl: string, wanted: number, opts: { partial?: boolean } = {}): Promise<Prepared> {
  const codes = await json<{ id: string; merchantCode: string }[]>(await fetch(`${baseUrl}/api/sandbox/merchants`), 'GET /api/sandbox/merchants');
  const codeOf = new Map(codes.map((m) => [m.id, m.merchantCode]));
  const products: { productId: string; amount?: number }[] = [];
  for (const m of codes) {
    const list = await json<{ id: string; source: string; price?: number | null; minAmount?: number | null; maxAmount?: number | null }[]>(
      await fetch(`${baseUrl}/api/merchant/${m.id}/products`),
      'GET /api/merchant/{id}/products',
    );
    if (opts.partial) {
      const p = list.find((x) => x.source === 'InStore' && typeof x.minAmount === 'number' && typeof x.maxAmount === 'number');
      if (p) products.push({ productId: p.id, amount: Math.min(2 * p.minAmount!, p.maxAmount!) });
    } else {
      const p = list.find((x) => x.source === 'InStore' && typeof x.price === 'number');
      if (p) products.push({ productId: p.id });
    }
  }
  if (products.length === 0) throw new Error(`no ${opts.partial ? 'value (min/max)' : 'fixed-price'} InStore product among the demo merchants`);

  const recipients = await inBatches(Array.from({ length: RECIPIENTS }), RECIPIENTS, () => signIn(baseUrl));
  const greetiesWanted = Math.ceil(wanted / GIFTS_PER_GREETIE);
  const perSender = PER_RECIPIENT * RECIPIENTS;
  const senders = await inBatches(Array.from({ length: Math.ceil(greetiesWanted / perSender) }), 4, async () => {
    const s = await signIn(baseUrl);
    // A sender needs a name: startpayment is 409 SENDER_NAME_REQUIRED without.
    await json(await fetch(`${baseUrl}/api/mobileuser`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` }, body: '{"name":"Anna"}' }), 'POST /api/mobileuser');
    return s;
  });
  const jobs = senders.flatMap((s) => recipients.flatMap((r) => Array.from({ length: PER_RECIPIENT }, () => ({ s, r })))).slice(0, greetiesWanted);
  let n = 0;
  const greeties = await inBatches(jobs, 8, async ({ s, r }) => {
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${s.token}` };
    const gifts = Array.from({ length: GIFTS_PER_GREETIE }, () => products[n++ % products.length]!);
    const g = await json<{ id: string }>(
      await fetch(`${baseUrl}/api/greetie/createv2`, { method: 'POST', headers: auth, body: JSON.stringify({ recipient: { mobileNumber: r.mobileNumber }, gifts }) }),
      'POST /api/greetie/createv2',
    );
    const p = await json<{ id: string }>(await fetch(`${baseUrl}/api/greetie/${g.id}/startpayment`, { method: 'POST', headers: auth, body: '{"withdrawalConsent":true}' }), 'startpayment');
    await json(
      await fetch(`${baseUrl}/api/sandbox/payments/${p.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome: 'paid' }) }),
      'POST /api/sandbox/payments/{id}',
    );
    return g.id;
  });

  // Delivered by the server's own worker: wait until every recipient holds every voucher.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const lists = await Promise.all(
      recipients.map(async (r) => ({
        r,
        vouchers: await json<{ id: string; merchant: { id: string }; amount: number; isRedeemed: boolean }[]>(
          await fetch(`${baseUrl}/api/voucher`, { headers: { authorization: `Bearer ${r.token}` } }),
          'GET /api/voucher',
        ),
      })),
    );
    const total = lists.reduce((a, l) => a + l.vouchers.length, 0);
    if (total >= greeties.length * GIFTS_PER_GREETIE) {
      const vouchers = lists.flatMap((l) =>
        l.vouchers.map((v) => ({
          voucherId: v.id,
          merchantCode: codeOf.get(v.merchant.id)!,
          token: l.r.token,
          ...(opts.partial ? { amount: Math.floor(v.amount / 2) } : {}),
        })),
      );
      return { vouchers, merchants: new Set(lists.flatMap((l) => l.vouchers.map((v) => v.merchant.id))).size, recipients };
    }
    if (Date.now() > deadline) throw new Error(`only ${total} of ${greeties.length * GIFTS_PER_GREETIE} vouchers delivered within 120 s`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

type Voucher = Prepared['vouchers'][number];

/** The redeem's body for one voucher: the whole voucher, or `amount` of it. */
const bodyOf = (v: Voucher) => JSON.stringify({ voucherId: v.voucherId, merchantCode: v.merchantCode, ...(v.amount === undefined ? {} : { amount: v.amount }) });

/** Redeems each of `items` once, closed loop at `connections` (autocannon). */
async function redeemEach(baseUrl: string, items: Voucher[], opts: { connections: number }): Promise<RedeemRun> {
  let next = 0;
  let first = 0;
  let last = 0;
  const inst = autocannon({
    url: baseUrl,
    connections: opts.connections,
    pipelining: 1,
    amount: items.length,
    requests: [
      {
        method: 'POST',
        path: '/api/voucher/redeem',
        setupRequest: (req) => {
          const v = items[next++ % items.length]!;
          if (first === 0) first = performance.now();
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${v.token}` },
            body: bodyOf(v),
          };
        },
      },
    ],
  });
  (inst as unknown as autocannon.Instance).on('response', () => (last = performance.now()));
  const res = await inst;
  const seconds = (last - first) / 1000;
  return {
    vouchers: items.length,
    connections: opts.connections,
    offeredPerSec: null,
    seconds,
    redeemsPerSec: res.requests.total / seconds,
    p50: res.latency.p50,
    p90: res.latency.p90,
    p99: res.latency.p99,
    max: res.latency.max,
    non2xx: res.non2xx,
    errors: res.errors,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
const ms = (x: number) => Math.round(x * 10) / 10;

/**
 * Redeems each of `items` once, open loop: request i is due at start + i ÷ `rate` seconds, evenly
 * spaced, whatever the answers before it; up to `connections` at a time (keep-alive), more wait for
 * a free one. Each latency runs from the request's due time to its answer's end, so waiting for a
 * connection counts (no coordinated omission). autocannon's `overallRate` is not used: it lets each
 * connection send its quota back to back at every whole second, all connections together, which
 * is bursts of `connections` at once rather than a rate.
 */
export async function redeemAtRate(baseUrl: string, items: Voucher[], opts: { rate: number; connections: number }): Promise<RedeemRun> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const url = new URL('/api/voucher/redeem', baseUrl);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  let last = start;
  const one = (v: Voucher, due: number) =>
    new Promise<void>((resolve) => {
      const body = bodyOf(v);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${v.token}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            last = performance.now();
            latencies.push(last - due);
            if (res.statusCode !== 200) non2xx += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  const inFlight: Promise<void>[] = [];
  await new Promise<void>((done) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      for (; i < items.length && start + (i * 1000) / opts.rate <= now; i++) inFlight.push(one(items[i]!, start + (i * 1000) / opts.rate));
      if (i < items.length) setTimeout(tick, 1);
      else done();
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = latencies.sort((a, b) => a - b);
  const seconds = (last - start) / 1000;
  return {
    vouchers: items.length,
    connections: opts.connections,
    offeredPerSec: opts.rate,
    seconds,
    redeemsPerSec: latencies.length / seconds,
    p50: ms(percentile(sorted, 50)),
    p90: ms(percentile(sorted, 90)),
    p99: ms(percentile(sorted, 99)),
    max: ms(percentile(sorted, 100)),
    non2xx,
    errors,
  };
}

/**
 * Prepares 2 × `count` vouchers, then redeems `count` of them once each at `connections`
 * closed-loop connections (saturation: throughput), and right after, on the same server, the
 * other `count` offered at `rate` per second, evenly spaced, over up to `rateConnections`
 * connections (redeemAtRate): the p99 at the target load.
 * The first run meets every merchant's first code check (one scrypt each, decision 034); the
 * second measures the steady state.
 */
export async function benchRedeem(
  baseUrl: string,
  opts: { count: number; connections: number; rate: number; rateConnections: number; partial?: boolean },
): Promise<RedeemBenchResult> {
  const t0 = performance.now();
  const partial = opts.partial ?? false;
  const prepared = await prepare(baseUrl, 2 * opts.count, { partial });
  const prepareSeconds = (performance.now() - t0) / 1000;
  // Shuffled, so recipients and merchants interleave as at many tills at once.
  const queue = prepared.vouchers.map((v) => ({ v, k: Math.random() })).sort((a, b) => a.k - b.k).map((x) => x.v);
  const saturation = await redeemEach(baseUrl, queue.slice(0, opts.count), { connections: opts.connections });
  const atRate = await redeemAtRate(baseUrl, queue.slice(opts.count, 2 * opts.count), { rate: opts.rate, connections: opts.rateConnections });
  const wrongBalances = partial ? await checkBalances(baseUrl, prepared, queue.slice(0, 2 * opts.count)) : 0;
  return { available: true, partial, wrongBalances, ...saturation, merchants: prepared.merchants, atRate, prepareSeconds };
}

/** After partial redemptions: how many of the redeemed vouchers do not hold exactly amount − taken, with one redemption. */
async function checkBalances(baseUrl: string, prepared: Prepared, redeemed: Voucher[]): Promise<number> {
  const taken = new Map(redeemed.map((v) => [v.voucherId, v.amount ?? 0]));
  let wrong = 0;
  for (const r of prepared.recipients) {
    const list = await json<{ id: string; amount: number; balance: number; redemptions: unknown[] }[]>(
      await fetch(`${baseUrl}/api/voucher`, { headers: { authorization: `Bearer ${r.token}` } }),
      'GET /api/voucher',
    );
    for (const v of list) {
      const t = taken.get(v.id);
      if (t !== undefined && (v.balance !== v.amount - t || v.redemptions.length !== 1)) wrong += 1;
    }
  }
  return wrong;
}
