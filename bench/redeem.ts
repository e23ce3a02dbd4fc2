import autocannon from 'autocannon';

/**
 * Redeems at the till (issue 14): POST /api/voucher/redeem with the right merchant code, each
 * request a different voucher, so every request is a real redeem (one conditional UPDATE, its
 * attempt recorded) and none is the cheap 409 of a voucher already used. Targets: ≥ 500 redeems/s
 * on this machine, p99 ≤ 50 ms.
 *
 * The vouchers are made the way the product makes them, over HTTP: senders sign in, send greeties
 * with 10 gifts each (fixed-price InStore products of several demo merchants, so several merchant
 * codes are checked) to a few recipients, pay in the sandbox, and the server's delivery worker
 * delivers them. Senders keep inside the sending limits (3 greeties to one number, 20 a day).
 */

export interface RedeemBenchResult {
  available: true;
  vouchers: number;
  merchants: number;
  connections: number;
  seconds: number;
  redeemsPerSec: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Answers other than 200 (each voucher is redeemed once, so any is a failure). */
  non2xx: number;
  errors: number;
  prepareSeconds: number;
}

interface Prepared {
  vouchers: { voucherId: string; merchantCode: string; token: string }[];
  merchants: number;
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

async function prepare(baseUrl: string, wanted: number): Promise<Prepared> {
  const codes = await json<{ id: string; merchantCode: string }[]>(await fetch(`${baseUrl}/api/sandbox/merchants`), 'GET /api/sandbox/merchants');
  const codeOf = new Map(codes.map((m) => [m.id, m.merchantCode]));
  const products: string[] = [];
  for (const m of codes) {
    const list = await json<{ id: string; source: string; price?: number | null }[]>(await fetch(`${baseUrl}/api/merchant/${m.id}/products`), 'GET /api/merchant/{id}/products');
    const p = list.find((x) => x.source === 'InStore' && typeof x.price === 'number');
    if (p) products.push(p.id);
  }
  if (products.length === 0) throw new Error('no fixed-price InStore product among the demo merchants');

  const recipients = await inBatches(Array.from({ length: RECIPIENTS }), RECIPIENTS, () => signIn(baseUrl));
  const greetiesWanted = Math.ceil(wanted / GIFTS_PER_GREETIE);
  const perSender = PER_RECIPIENT * RECIPIENTS;
  const senders = await inBatches(Array.from({ length: Math.ceil(greetiesWanted / perSender) }), 4, () => signIn(baseUrl));
  const jobs = senders.flatMap((s) => recipients.flatMap((r) => Array.from({ length: PER_RECIPIENT }, () => ({ s, r })))).slice(0, greetiesWanted);
  let n = 0;
  const greeties = await inBatches(jobs, 8, async ({ s, r }) => {
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${s.token}` };
    const gifts = Array.from({ length: GIFTS_PER_GREETIE }, () => ({ productId: products[n++ % products.length]! }));
    const g = await json<{ id: string }>(
      await fetch(`${baseUrl}/api/greetie/createv2`, { method: 'POST', headers: auth, body: JSON.stringify({ recipient: { mobileNumber: r.mobileNumber }, gifts }) }),
      'POST /api/greetie/createv2',
    );
    const p = await json<{ id: string }>(await fetch(`${baseUrl}/api/greetie/${g.id}/startpayment`, { method: 'POST', headers: auth, body: '{}' }), 'startpayment');
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
        vouchers: await json<{ id: string; merchant: { id: string }; isRedeemed: boolean }[]>(
          await fetch(`${baseUrl}/api/voucher`, { headers: { authorization: `Bearer ${r.token}` } }),
          'GET /api/voucher',
        ),
      })),
    );
    const total = lists.reduce((a, l) => a + l.vouchers.length, 0);
    if (total >= greeties.length * GIFTS_PER_GREETIE) {
      const vouchers = lists.flatMap((l) => l.vouchers.map((v) => ({ voucherId: v.id, merchantCode: codeOf.get(v.merchant.id)!, token: l.r.token })));
      return { vouchers, merchants: new Set(lists.flatMap((l) => l.vouchers.map((v) => v.merchant.id))).size };
    }
    if (Date.now() > deadline) throw new Error(`only ${total} of ${greeties.length * GIFTS_PER_GREETIE} vouchers delivered within 120 s`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** Prepares `count` vouchers, then redeems each once at `connections` connections. */
export async function benchRedeem(
  baseUrl: string,
  opts: { count: number; connections: number },
): Promise<RedeemBenchResult> {
  const t0 = performance.now();
  const prepared = await prepare(baseUrl, opts.count);
  const prepareSeconds = (performance.now() - t0) / 1000;
  // Shuffled, so recipients and merchants interleave as at many tills at once.
  const queue = prepared.vouchers.map((v) => ({ v, k: Math.random() })).sort((a, b) => a.k - b.k).map((x) => x.v);
  let next = 0;
  const res = await autocannon({
    url: baseUrl,
    connections: opts.connections,
    pipelining: 1,
    amount: queue.length,
    requests: [
      {
        method: 'POST',
        path: '/api/voucher/redeem',
        setupRequest: (req) => {
          const v = queue[next++ % queue.length]!;
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${v.token}` },
            body: JSON.stringify({ voucherId: v.voucherId, merchantCode: v.merchantCode }),
          };
        },
      },
    ],
  });
  return {
    available: true,
    vouchers: queue.length,
    merchants: prepared.merchants,
    connections: opts.connections,
    seconds: res.duration,
    redeemsPerSec: res.requests.total / res.duration,
    p50: res.latency.p50,
    p90: res.latency.p90,
    p99: res.latency.p99,
    max: res.latency.max,
    non2xx: res.non2xx,
    errors: res.errors,
    prepareSeconds,
  };
}
