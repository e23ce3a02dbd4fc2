import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDatabase } from '../server/admin/connection.ts';
import { demoMerchants, demoProductId } from '../server/merchant/seed.ts';
import { loadCodes } from '../server/voucher/codes.ts';
import { demoCode } from '../server/payment/seed.ts';

/**
 * Payments under load (docs/decisions/080-payment-provider.md "Bench"), against the
 * real server with the sandbox provider (what `npm start` runs by default):
 * - POST /api/greetie/{id}/startpayment: each request a different draft (a second start of the
 *   same draft answers its payment without work), each draft an InStore gift and a Code gift
 *   (so the code reservation is in every request), drafts spread over senders so the sending
 *   limits (20 a day per sender) are never reached;
 * - POST /api/greetie/paymentCallBack: each request a different payment the sandbox has PAID
 *   (set in its table just before the round, as the payer's approval would), so every callback
 *   does the whole paid path: asks the provider, locks, settles, issues two vouchers, takes a
 *   code, schedules the delivery. The round's payments are touched (updated_at) just before it,
 *   so the server's own reconciliation (payments older than 5 s) does not take them first.
 * Each request once: autocannon `amount` = the prepared drafts or payments of the round. There is
 * no ceiling replay here: a replay of "200 {}" says nothing about a write path; the figures
 * stand beside their targets alone.
 */

export interface PaymentSample {
  requests: number;
  seconds: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export type PaymentBenchResult =
  | {
      available: true;
      perRound: number;
      rounds: number;
      connections: number;
      startpayment: PaymentSample[];
      callback: PaymentSample[];
      /** After the callbacks: payments paid and vouchers issued (2 per payment), codes taken once. */
      check: { payments: number; paid: number; vouchers: number; coded: number; distinctCodes: number };
    }
  | { available: false; why: string };

type Step = { path: string; headers: Record<string, string>; body: string };

async function fire(baseUrl: string, steps: Step[], connections: number): Promise<PaymentSample> {
  let next = 0;
  const res = await autocannon({
    url: baseUrl,
    connections: Math.min(connections, steps.length),
    amount: steps.length,
    pipelining: 1,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          const s = steps[next++ % steps.length]!;
          return { ...req, path: s.path, headers: { ...(req.headers ?? {}), ...s.headers }, body: s.body };
        },
      },
    ],
  });
  return {
    requests: res.requests.total,
    seconds: res.duration,
    reqPerSec: res.requests.total / res.duration,
    p50: res.latency.p50,
    p99: res.latency.p99,
    non2xx: res.non2xx,
    errors: res.errors,
  };
}

async function pool<T>(items: T[], width: number, run: (item: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (i < items.length) await run(items[i++]!);
  }));
}

export async function benchPayments(
  baseUrl: string,
  dataDir: string,
  signIn: (baseUrl: string) => Promise<string>,
  opts: { connections: number; rounds: number; perRound: number; log: (s: string) => void },
): Promise<PaymentBenchResult> {
  const merchant = demoMerchants.find((m) => m.products.some((p) => p.source === 'Code') && m.products.some((p) => p.source === 'InStore' && p.price));
  if (!merchant) return { available: false, why: 'no demo merchant with an InStore and a Code product' };
  const inStore = demoProductId(merchant, merchant.products.findIndex((p) => p.source === 'InStore' && p.price));
  const codeIndex = merchant.products.findIndex((p) => p.source === 'Code');
  const code = merchant.products[codeIndex]!;
  const codeGift = { productId: demoProductId(merchant, codeIndex), ...(code.price === undefined ? { amount: code.minAmount } : {}) };

  const warm = Math.min(50, opts.perRound);
  const total = warm + opts.rounds * opts.perRound;
  const database = await openDatabase({ DATA_DIR: dataDir });
  try {
    await loadCodes(database.db, codeGift.productId, Array.from({ length: total + 100 }, demoCode), new Date());

    // Senders: 15 drafts each (the limit is 20 a day), signed in as a crowd would.
    const senders: string[] = [];
    for (let i = 0; i < Math.ceil(total / 15); i++) {
      const token = await signIn(baseUrl);
      // A sender needs a name: startpayment is 409 SENDER_NAME_REQUIRED without.
      await fetch(`${baseUrl}/api/mobileuser`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"name":"Anna"}' });
      senders.push(token);
    }
    const drafts: { id: string; token: string }[] = [];
    let n = 0;
    await pool(Array.from({ length: total }, (_, i) => i), 16, async (i) => {
      const token = senders[i % senders.length]!;
      n += 1;
      const res = await fetch(`${baseUrl}/api/greetie/createv2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ recipient: { mobileNumber: `+4676${String(1_000_000 + n).slice(-7)}` }, gifts: [{ productId: inStore }, codeGift] }),
      });
      if (res.status !== 200) throw new Error(`createv2 answered ${res.status}: ${await res.text()}`);
      drafts.push({ id: ((await res.json()) as { id: string }).id, token });
    });
    opts.log(`payments: ${drafts.length} drafts by ${senders.length} senders ready`);

    const start = (d: { id: string; token: string }): Step => ({
      path: `/api/greetie/${d.id}/startpayment`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${d.token}` },
      body: '{"withdrawalConsent":true}',
    });
    await fire(baseUrl, drafts.slice(0, warm).map(start), opts.connections);
    const startpayment: PaymentSample[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const s = await fire(baseUrl, drafts.slice(warm + r * opts.perRound, warm + (r + 1) * opts.perRound).map(start), opts.connections);
      startpayment.push(s);
      opts.log(`  startpayment round ${r + 1}: ${s.reqPerSec.toFixed(0)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, non-2xx/errors ${s.non2xx + s.errors}`);
    }

    const greetieIds = drafts.map((d) => d.id);
    const { rows } = await sql<{ id: string; instruction_id: string; greetie_id: string }>`
      SELECT id, instruction_id, greetie_id FROM payment WHERE greetie_id = ANY(${greetieIds}::uuid[]) AND status = 'pending'`.execute(database.db);
    const order = new Map(greetieIds.map((id, i) => [id, i]));
    rows.sort((a, b) => order.get(a.greetie_id)! - order.get(b.greetie_id)!);
    const callbackRound = async (chunk: typeof rows): Promise<PaymentSample> => {
      const ids = chunk.map((p) => p.instruction_id);
      // The payer approved in Swish: the sandbox's request is PAID; Swish now calls back.
      await sql`
        UPDATE sandbox_payment_request
           SET status = 'PAID', date_paid = now(), updated_at = now(), payment_reference = upper(md5(instruction_id))
         WHERE instruction_id = ANY(${ids}::text[]) AND status = 'CREATED'`.execute(database.db);
      await sql`UPDATE payment SET updated_at = now() WHERE id = ANY(${chunk.map((p) => p.id)}::uuid[])`.execute(database.db);
      return fire(
        baseUrl,
        ids.map((id) => ({ path: '/api/greetie/paymentCallBack', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, status: 'PAID' }) })),
        opts.connections,
      );
    };
    await callbackRound(rows.slice(0, warm));
    const callback: PaymentSample[] = [];
    for (let r = 0; r < opts.rounds; r++) {
      const s = await callbackRound(rows.slice(warm + r * opts.perRound, warm + (r + 1) * opts.perRound));
      callback.push(s);
      opts.log(`  callback round ${r + 1}: ${s.reqPerSec.toFixed(0)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, non-2xx/errors ${s.non2xx + s.errors}`);
    }

    const check = await sql<{ payments: number; paid: number; vouchers: number; coded: number; distinct_codes: number }>`
      SELECT (SELECT count(*)::int FROM payment WHERE greetie_id = ANY(${greetieIds}::uuid[])) AS payments,
             (SELECT count(*)::int FROM payment WHERE greetie_id = ANY(${greetieIds}::uuid[]) AND status = 'paid') AS paid,
             (SELECT count(*)::int FROM voucher WHERE greetie_id = ANY(${greetieIds}::uuid[])) AS vouchers,
             (SELECT count(*)::int FROM voucher WHERE greetie_id = ANY(${greetieIds}::uuid[]) AND code IS NOT NULL) AS coded,
             (SELECT count(DISTINCT code)::int FROM voucher WHERE greetie_id = ANY(${greetieIds}::uuid[]) AND code IS NOT NULL) AS distinct_codes`.execute(database.db);
    const c = check.rows[0]!;
    return {
      available: true,
      perRound: opts.perRound,
      rounds: opts.rounds,
      connections: opts.connections,
      startpayment,
      callback,
      check: { payments: c.payments, paid: c.paid, vouchers: c.vouchers, coded: c.coded, distinctCodes: c.distinct_codes },
    };
  } finally {
    await database.close();
  }
}
