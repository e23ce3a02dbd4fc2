import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Product } from '../../../contract/merchant.ts';
import type { Payment } from '../../../contract/payment.ts';
import { runAdmin, EXIT } from '../../../server/admin/commands.ts';
import type { SandboxPaymentProvider } from '../../../server/providers/payment/index.ts';
import { call, catalogue, freshNumber, greetieTestApp, person, type Catalogue, type Person } from '../greetie/support.ts';

/**
 * Code pools on real PostgreSQL (migration 009; decision 080 "Code pools"): a Code
 * product is available while its pool has a free code; a draft cannot hold more of it than the
 * pool has; startpayment reserves one code per Code gift (409 GIFT_CODE_POOL_EMPTY and nothing
 * changed when the pool has too few); paid vouchers take them, each code once even under
 * concurrency; an unpaid end gives them back; the admin command loads codes and never prints one.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let products: Catalogue;
let merchantId: string;
let sandbox: SandboxPaymentProvider;

beforeAll(async () => {
  t = await greetieTestApp();
  products = await catalogue(t.db.db);
  sandbox = t.app.services.payments as SandboxPaymentProvider;
  const { rows } = await sql<{ merchant_id: string }>`SELECT merchant_id FROM product WHERE id = ${products.fixed}`.execute(t.db.db);
  merchantId = rows[0]!.merchant_id;
});
afterAll(async () => {
  await t.close();
});

let codeSeq = 0;
async function codeProduct(codes: number): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO product (merchant_id, name, source, price, valid_days, active)
    VALUES (${merchantId}, ${`Digital kod ${++codeSeq}`}, 'Code', 5000, 365, true)
    RETURNING id`.execute(t.db.db);
  const id = rows[0]!.id;
  if (codes > 0) await load(id, Array.from({ length: codes }, (_, i) => `CODE-${codeSeq}-${i}`));
  return id;
}

/** The admin command, as the operator runs it, with the codes in a file. */
async function admin(argv: string[], stdin?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, {
    env: { LANG: 'sv_SE.UTF-8' },
    readStdin: async () => stdin,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    openDb: async () => ({ db: t.db.db, close: async () => {} }) as never,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function load(productId: string, codes: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), 'greetie-codes-'));
  const file = path.join(dir, 'codes.txt');
  writeFileSync(file, codes.join('\n') + '\n');
  const r = await admin(['codes', 'load', '--product', productId, '--file', file]);
  expect(r.code, r.err).toBe(EXIT.ok);
  return r;
}

async function products_(): Promise<Product[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/merchant/${merchantId}/products` });
  expect(res.statusCode).toBe(200);
  return res.json() as Product[];
}
async function available(productId: string): Promise<boolean | undefined> {
  return (await products_()).find((p) => p.id === productId)?.available;
}

async function free(productId: string): Promise<number> {
  const { rows } = await sql<{ free: number; counted: number }>`
    SELECT (SELECT free FROM code_pool WHERE product_id = ${productId}) AS free,
           (SELECT count(*)::int FROM product_code WHERE product_id = ${productId} AND payment_id IS NULL AND taken_at IS NULL) AS counted`.execute(t.db.db);
  // The counter and the codes agree.
  expect(rows[0]!.free ?? 0).toBe(rows[0]!.counted);
  return rows[0]!.counted;
}

async function draft(who: Person, gifts: unknown[]) {
  return call(t.app, who, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: freshNumber(), name: 'Vän' }, gifts });
}

async function startPaid(who: Person, greetieId: string): Promise<Payment> {
  const res = await call(t.app, who, 'POST', `/api/greetie/${greetieId}/startpayment`, { withdrawalConsent: true });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Payment;
}

async function settle(paymentId: string, outcome: string) {
  const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${paymentId}`, payload: { outcome } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Payment;
}

async function vouchersOf(greetieId: string) {
  const { rows } = await sql<{ id: string; source: string; code: string | null; product_id: string }>`
    SELECT id, source, code, product_id FROM voucher WHERE greetie_id = ${greetieId} ORDER BY id`.execute(t.db.db);
  return rows;
}

async function snapshot(): Promise<string> {
  const { rows } = await sql<{ s: string }>`
    SELECT (SELECT coalesce(json_agg(g ORDER BY g.id), '[]') FROM greetie g)::text || '|' ||
           (SELECT coalesce(json_agg(gg ORDER BY gg.id), '[]') FROM greetie_gift gg)::text || '|' ||
           (SELECT coalesce(json_agg(p ORDER BY p.id), '[]') FROM payment p)::text || '|' ||
           (SELECT coalesce(json_agg(v ORDER BY v.id), '[]') FROM voucher v)::text || '|' ||
           (SELECT coalesce(json_agg(c ORDER BY c.id), '[]') FROM product_code c)::text || '|' ||
           (SELECT coalesce(json_agg(cp ORDER BY cp.product_id), '[]') FROM code_pool cp)::text AS s`.execute(t.db.db);
  return rows[0]!.s;
}

describe('availability in the catalogue', () => {
  it('a Code product is unavailable with an empty pool, available once codes are loaded, and again not once they are gone; other products always', async () => {
    const id = await codeProduct(0);
    expect(await available(id)).toBe(false);
    expect(await available(products.fixed)).toBe(true);
    // The cached answer is emptied by the load (the catalogue version trigger), not served stale.
    await load(id, ['A-1']);
    expect(await available(id)).toBe(true);
    const alice = await person(t.app);
    const g = (await draft(alice, [{ productId: id }])).json() as Greetie;
    const p = await startPaid(alice, g.id);
    // Reserved by a pending payment: nobody else can choose it.
    expect(await free(id)).toBe(0);
    expect(await available(id)).toBe(false);
    await settle(p.id, 'declined');
    expect(await free(id)).toBe(1);
    expect(await available(id)).toBe(true);
  });
});

describe('drafts', () => {
  it('createv2 and PATCH refuse a Code product named more often than its pool has free codes: 409, nothing changed', async () => {
    const alice = await person(t.app);
    const empty = await codeProduct(0);
    const two = await codeProduct(2);
    const ok = (await draft(alice, [{ productId: two }, { productId: two }])).json() as Greetie;
    expect(ok.gifts).toHaveLength(2);
    const before = await snapshot();
    for (const res of [
      await draft(alice, [{ productId: empty }]),
      await draft(alice, [{ productId: two }, { productId: two }, { productId: two }]),
      await call(t.app, alice, 'PATCH', `/api/greetie/${ok.id}`, { gifts: [{ productId: products.fixed }, { productId: empty }] }),
    ]) {
      expect(res.statusCode, res.body).toBe(409);
      expect((res.json() as { code: string }).code).toBe('GIFT_CODE_POOL_EMPTY');
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('startpayment and paid', () => {
  it('paid: each Code voucher carries one code of its pool, taken for good; other gifts carry none', async () => {
    const alice = await person(t.app);
    const id = await codeProduct(3);
    const g = (await draft(alice, [{ productId: id }, { productId: id }, { productId: products.fixed }])).json() as Greetie;
    const p = await startPaid(alice, g.id);
    expect(await free(id)).toBe(1);
    await settle(p.id, 'paid');
    const vouchers = await vouchersOf(g.id);
    const codes = vouchers.filter((v) => v.source === 'Code').map((v) => v.code);
    expect(codes).toHaveLength(2);
    expect(new Set(codes).size).toBe(2);
    for (const c of codes) expect(c).toMatch(/^CODE-\d+-\d$/);
    expect(vouchers.find((v) => v.source !== 'Code')!.code).toBeNull();
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM product_code WHERE product_id = ${id} AND taken_at IS NOT NULL AND voucher_id IS NOT NULL`.execute(t.db.db);
    expect(rows[0]!.n).toBe(2);
    expect(await free(id)).toBe(1);
  });

  it('each unpaid end gives the reserved codes back: declined, cancelled, error, timeout, a DELETE', async () => {
    const alice = await person(t.app);
    const id = await codeProduct(1);
    for (const outcome of ['declined', 'cancelled', 'error', 'timeout']) {
      const g = (await draft(alice, [{ productId: id }])).json() as Greetie;
      const p = await startPaid(alice, g.id);
      expect(await free(id)).toBe(0);
      await settle(p.id, outcome);
      expect(await free(id), outcome).toBe(1);
    }
    const g = (await draft(alice, [{ productId: id }])).json() as Greetie;
    await startPaid(alice, g.id);
    expect(await free(id)).toBe(0);
    const del = await call(t.app, alice, 'DELETE', `/api/greetie/${g.id}`);
    expect(del.statusCode, del.body).toBe(204);
    expect(await free(id)).toBe(1);
  });

  it('the pool ran out after the draft was made: startpayment 409 GIFT_CODE_POOL_EMPTY, nothing changed', async () => {
    const alice = await person(t.app);
    const bob = await person(t.app);
    const id = await codeProduct(1);
    const first = (await draft(alice, [{ productId: id }])).json() as Greetie;
    const second = (await draft(bob, [{ productId: id }])).json() as Greetie;
    await startPaid(alice, first.id);
    const before = await snapshot();
    const res = await call(t.app, bob, 'POST', `/api/greetie/${second.id}/startpayment`, { withdrawalConsent: true });
    expect(res.statusCode, res.body).toBe(409);
    expect((res.json() as { code: string }).code).toBe('GIFT_CODE_POOL_EMPTY');
    expect(await snapshot()).toBe(before);
  });

  it('concurrency: 12 senders start at once for a pool of 8 codes: 8 payments, 4 refusals, and once paid 8 distinct codes', async () => {
    const id = await codeProduct(8);
    const senders = await Promise.all(Array.from({ length: 12 }, () => person(t.app)));
    const drafts = await Promise.all(senders.map(async (s) => ((await draft(s, [{ productId: id }])).json() as Greetie).id));
    const results = await Promise.all(senders.map((s, i) => call(t.app, s, 'POST', `/api/greetie/${drafts[i]}/startpayment`, { withdrawalConsent: true })));
    const started = results.filter((r) => r.statusCode === 200).map((r) => r.json() as Payment);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(started).toHaveLength(8);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(409);
      expect((r.json() as { code: string }).code).toBe('GIFT_CODE_POOL_EMPTY');
    }
    expect(await free(id)).toBe(0);
    await Promise.all(started.map((p) => settle(p.id, 'paid')));
    const { rows } = await sql<{ code: string }>`SELECT code FROM voucher WHERE product_id = ${id}`.execute(t.db.db);
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((r) => r.code)).size).toBe(8);
  });

  it('concurrency: two Code gifts of two products in opposite orders, started at once, never deadlock or share a code', async () => {
    const a = await codeProduct(10);
    const b = await codeProduct(10);
    const senders = await Promise.all(Array.from({ length: 8 }, () => person(t.app)));
    const drafts = await Promise.all(
      senders.map(async (s, i) => ((await draft(s, i % 2 ? [{ productId: a }, { productId: b }] : [{ productId: b }, { productId: a }])).json() as Greetie).id),
    );
    const results = await Promise.all(senders.map((s, i) => call(t.app, s, 'POST', `/api/greetie/${drafts[i]}/startpayment`, { withdrawalConsent: true })));
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    await Promise.all(results.map((r) => settle((r.json() as Payment).id, 'paid')));
    const { rows } = await sql<{ code: string }>`SELECT code FROM voucher WHERE product_id IN (${a}, ${b})`.execute(t.db.db);
    expect(rows).toHaveLength(16);
    expect(new Set(rows.map((r) => r.code)).size).toBe(16);
    expect(await free(a)).toBe(2);
    expect(await free(b)).toBe(2);
  });
});

describe('npm run admin -- codes', () => {
  it('load from a file and from stdin: counts only, never a code; duplicates once; count', async () => {
    const id = await codeProduct(0);
    const secret = ['SECRET-AAAA-1111', 'SECRET-BBBB-2222', '  SECRET-CCCC-3333  ', '', 'SECRET-AAAA-1111'];
    const first = await load(id, secret);
    expect(first.out).toBe('3 nya koder inlagda, 0 fanns redan. Lediga koder nu: 3.');
    const again = await admin(['codes', 'load', '--product', id, '--lang', 'en'], 'SECRET-AAAA-1111\nSECRET-DDDD-4444\n');
    expect(again.code, again.err).toBe(EXIT.ok);
    expect(again.out).toBe('1 new codes loaded, 1 were there already. Free codes now: 4.');
    const count = await admin(['codes', 'count', '--product', id]);
    expect(count.out).toBe('Lediga koder: 4.');
    for (const r of [first, again, count]) expect(`${r.out}\n${r.err}`).not.toMatch(/SECRET/);
    const { rows } = await sql<{ code: string }>`SELECT code FROM product_code WHERE product_id = ${id} ORDER BY code`.execute(t.db.db);
    expect(rows.map((r) => r.code)).toEqual(['SECRET-AAAA-1111', 'SECRET-BBBB-2222', 'SECRET-CCCC-3333', 'SECRET-DDDD-4444']);
  });

  it('refusals: not a Code product 4, unknown product 3, no product 2, an unreadable file 2, nothing piped 2, no codes 2; nothing loaded', async () => {
    const cases: [string[], string | undefined, number][] = [
      [['codes', 'load', '--product', products.fixed], 'X-1\n', EXIT.conflict],
      [['codes', 'load', '--product', '00000000-0000-4000-8000-000000000000'], 'X-1\n', EXIT.notFound],
      [['codes', 'load', '--product', 'nonsense'], 'X-1\n', EXIT.notFound],
      [['codes', 'load'], 'X-1\n', EXIT.badInput],
      [['codes', 'load', '--product', products.fixed, '--file', '/nonexistent/codes.txt'], undefined, EXIT.badInput],
      [['codes', 'load', '--product', products.fixed], undefined, EXIT.badInput],
      [['codes', 'load', '--product', await codeProduct(0)], '\n\n', EXIT.badInput],
    ];
    const after = await snapshot();
    for (const [argv, stdin, exit] of cases) {
      const r = await admin(argv, stdin);
      expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(exit);
      expect(r.err).toMatch(/^Fel: /);
      expect(r.err).not.toMatch(/X-1/);
    }
    expect(await snapshot()).toBe(after);
  });
});

describe('the demo data', () => {
  it('every demo Code product has a pool of generated codes', async () => {
    const { rows } = await sql<{ id: string; free: number | null }>`
      SELECT p.id, cp.free FROM product p LEFT JOIN code_pool cp ON cp.product_id = p.id
       WHERE p.source = 'Code' AND p.id::text LIKE '4d0e1a2b-0001-%'`.execute(t.db.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.free, r.id).toBeGreaterThanOrEqual(100);
    expect(sandbox.name).toBe('sandbox');
  });
});
