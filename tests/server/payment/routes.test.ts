import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import type { Greetie } from '../../../contract/greetie.ts';
import { Payment } from '../../../contract/payment.ts';
import { TERMS_VERSION } from '../../../contract/terms.ts';
import type { SandboxPaymentProvider } from '../../../server/providers/payment/index.ts';
import { call, catalogue, greetieTestApp, person, type Catalogue, type Person } from '../greetie/support.ts';

/**
 * Paying for a greetie on real PostgreSQL: startpayment, the latest payment, the
 * provider's callback (confirmed with the provider, applied once), the sandbox's settle, and
 * DELETE while a payment is pending.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let products: Catalogue;
let alice: Person;
let bob: Person;
let sandbox: SandboxPaymentProvider;

beforeAll(async () => {
  t = await greetieTestApp();
  products = await catalogue(t.db.db);
  alice = await person(t.app);
  bob = await person(t.app);
  sandbox = t.app.services.payments as SandboxPaymentProvider;
});
afterAll(async () => {
  await t.close();
});

async function draftWithGifts(who: Person, opts: { recipient?: boolean; gifts?: unknown[] } = {}): Promise<Greetie> {
  const body: Record<string, unknown> = {
    gifts: opts.gifts ?? [{ productId: products.fixed }, { productId: products.value, amount: 20000 }],
  };
  if (opts.recipient !== false) body.recipient = { mobileNumber: bob.mobileNumber, name: 'Bob' };
  const res = await call(t.app, who, 'POST', '/api/greetie/createv2', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Greetie;
}

/** startpayment with the buyer's withdrawal consent, unless the body says otherwise. */
async function start(who: Person, id: string, body: Record<string, unknown> = {}) {
  return call(t.app, who, 'POST', `/api/greetie/${id}/startpayment`, { withdrawalConsent: true, ...body });
}

async function started(id: string, body: Record<string, unknown> = {}): Promise<Payment> {
  const res = await start(alice, id, body);
  expect(res.statusCode, res.body).toBe(200);
  const p = res.json() as Payment;
  expect(Value.Check(Payment, p), JSON.stringify(p)).toBe(true);
  return p;
}

async function greetieStatus(id: string): Promise<string> {
  const { rows } = await sql<{ status: string }>`SELECT status FROM greetie WHERE id = ${id}`.execute(t.db.db);
  return rows[0]!.status;
}

async function paymentRow(id: string) {
  const { rows } = await sql<{ status: string; instruction_id: string; error_code: string | null }>`
    SELECT status, instruction_id, error_code FROM payment WHERE id = ${id}`.execute(t.db.db);
  return rows[0]!;
}

async function voucherCount(greetieId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM voucher WHERE greetie_id = ${greetieId}`.execute(t.db.db);
  return rows[0]!.n;
}

/** Everything payments touch, to prove a call changed nothing. */
async function tables(): Promise<string> {
  const { rows } = await sql<{ s: string }>`
    SELECT (SELECT coalesce(json_agg(g ORDER BY g.id), '[]') FROM greetie g)::text || '|' ||
           (SELECT coalesce(json_agg(p ORDER BY p.id), '[]') FROM payment p)::text || '|' ||
           (SELECT coalesce(json_agg(v ORDER BY v.id), '[]') FROM voucher v)::text || '|' ||
           (SELECT coalesce(json_agg(r ORDER BY r.instruction_id), '[]') FROM sandbox_payment_request r)::text || '|' ||
           (SELECT coalesce(json_agg(c ORDER BY c.id), '[]') FROM product_code c)::text || '|' ||
           (SELECT coalesce(json_agg(cp ORDER BY cp.product_id), '[]') FROM code_pool cp)::text AS s`.execute(t.db.db);
  return rows[0]!.s;
}

function callback(body: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/greetie/paymentCallBack', payload: body as Record<string, unknown> });
}

describe('POST /api/greetie/{id}/startpayment', () => {
  it('m-commerce: writes the payment, the greetie awaits payment, the answer has the app link, QR code and token', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    expect(p).toMatchObject({ greetieId: g.id, provider: 'sandbox', status: 'pending', amount: 14900 + 20000, payerAlias: null, errorCode: null });
    expect(p.token).toMatch(/^[0-9a-f]{32}$/);
    expect(p.appUrl).toBe(`swish://paymentrequest?token=${p.token}&callbackurl=${encodeURIComponent(`http://localhost:3000/greetie/details/${g.id}`)}`);
    expect(p.qrCode).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(await greetieStatus(g.id)).toBe('awaitingPayment');
    const row = await paymentRow(p.id);
    const { rows } = await sql<{ payee_payment_reference: string; amount: number }>`
      SELECT payee_payment_reference, amount FROM sandbox_payment_request WHERE instruction_id = ${row.instruction_id}`.execute(t.db.db);
    expect(rows[0]).toEqual({ payee_payment_reference: g.id.replaceAll('-', ''), amount: 34900 });
    // A draft awaiting payment is no longer changed.
    const patch = await call(t.app, alice, 'PATCH', `/api/greetie/${g.id}`, { message: 'x' });
    expect(patch.statusCode).toBe(409);
  });

  it('again while pending: the same payment', async () => {
    const g = await draftWithGifts(alice);
    const first = await started(g.id);
    const again = await started(g.id);
    expect(again.id).toBe(first.id);
    expect(again.token).toBe(first.token);
  });

  it('again while pending without a token (a retried create found it made already): cancelled, a new one with a token', async () => {
    const g = await draftWithGifts(alice);
    const first = await started(g.id);
    await sql`UPDATE payment SET swish_token = NULL WHERE id = ${first.id}`.execute(t.db.db);
    const again = await started(g.id);
    expect(again.id).not.toBe(first.id);
    expect(again.token).not.toBeNull();
    expect((await paymentRow(first.id)).status).toBe('cancelled');
  });

  it('a new payer: the pending request is cancelled with the provider and a new one made (e-commerce: no token)', async () => {
    const g = await draftWithGifts(alice);
    const first = await started(g.id);
    const second = await started(g.id, { payerAlias: '070-111 22 33' });
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ status: 'pending', payerAlias: '+46701112233', token: null, appUrl: null, qrCode: null });
    expect((await paymentRow(first.id)).status).toBe('cancelled');
    const { rows } = await sql<{ status: string }>`
      SELECT status FROM sandbox_payment_request WHERE instruction_id = ${(await paymentRow(first.id)).instruction_id}`.execute(t.db.db);
    expect(rows[0]!.status).toBe('CANCELLED');
    expect(await greetieStatus(g.id)).toBe('awaitingPayment');
    // Back to m-commerce: the e-commerce one is cancelled too (and the payer's RP06 slot freed).
    const third = await started(g.id);
    expect((await paymentRow(second.id)).status).toBe('cancelled');
    expect(third.token).not.toBeNull();
  });

  it('refusals: no gifts 409, no recipient 400, a bad payer 400, a Code product whose pool ran out 409, anybody else 404, a visitor 401; nothing changes', async () => {
    const noGifts = await call(t.app, alice, 'POST', '/api/greetie', { recipient: { mobileNumber: bob.mobileNumber } });
    const noRecipient = await draftWithGifts(alice, { recipient: false });
    const g = await draftWithGifts(alice);
    const { rows } = await sql<{ id: string }>`
      INSERT INTO product (merchant_id, name, source, price, valid_days, active)
      SELECT merchant_id, 'Digital kod', 'Code', 5000, 365, true FROM product WHERE id = ${products.fixed}
      RETURNING id`.execute(t.db.db);
    // One code in the pool when the draft is made; taken by somebody else's payment before this one starts.
    await sql`INSERT INTO product_code (product_id, code) VALUES (${rows[0]!.id}, 'ONLY-ONE')`.execute(t.db.db);
    await sql`INSERT INTO code_pool (product_id, free) VALUES (${rows[0]!.id}, 1)`.execute(t.db.db);
    const code = await draftWithGifts(alice, { gifts: [{ productId: rows[0]!.id }] });
    await sql`UPDATE product_code SET taken_at = now() WHERE product_id = ${rows[0]!.id}`.execute(t.db.db);
    await sql`UPDATE code_pool SET free = 0 WHERE product_id = ${rows[0]!.id}`.execute(t.db.db);
    const cases: [() => ReturnType<typeof start>, number, string][] = [
      [() => start(alice, (noGifts.json() as Greetie).id), 409, 'GREETIE_NO_GIFTS'],
      [() => start(alice, noRecipient.id), 400, 'GREETIE_NO_RECIPIENT'],
      [() => start(alice, g.id, { payerAlias: '08-123 456' }), 400, 'INVALID_MOBILE_NUMBER'],
      [() => start(alice, code.id), 409, 'GIFT_CODE_POOL_EMPTY'],
      [() => start(bob, g.id), 404, 'GREETIE_NOT_FOUND'],
      [() => start(alice, '00000000-0000-4000-8000-000000000000'), 404, 'GREETIE_NOT_FOUND'],
      [() => start(undefined as unknown as Person, g.id), 401, 'UNAUTHORIZED'],
    ];
    for (const [send, status, errorCode] of cases) {
      const before = await tables();
      const res = await send();
      expect(res.statusCode, res.body).toBe(status);
      if (status !== 401) expect((res.json() as { code: string }).code).toBe(errorCode);
      expect(await tables()).toBe(before);
    }
  });

  it('the withdrawal consent: missing, false or not true is 400 CONSENT_REQUIRED and nothing is written', async () => {
    const g = await draftWithGifts(alice);
    for (const consent of [undefined, false, null, 'no']) {
      const before = await tables();
      const res = await start(alice, g.id, { withdrawalConsent: consent });
      expect(res.statusCode, `${String(consent)}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'CONSENT_REQUIRED', details: [{ field: 'body.withdrawalConsent', problem: 'required' }] });
      expect((res.json() as { message: string }).message).toMatch(/ångerrätt/);
      expect(await tables()).toBe(before);
    }
    expect(await greetieStatus(g.id)).toBe('draft');
    // Another bad field beside it is the schema's 400, naming that field.
    const both = await start(alice, g.id, { withdrawalConsent: false, payerAlias: 12 });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.payerAlias' }] });
    // A bad id beside a bad consent is the schema's 400 on the id, as on every route (never a 500).
    for (const id of ['%2e%2e%2F', 'not-a-uuid']) {
      const badId = await call(t.app, alice, 'POST', `/api/greetie/${id}/startpayment`, { withdrawalConsent: 'yes' });
      expect(badId.statusCode, badId.body).toBe(400);
      expect((badId.json() as { code: string }).code).toBe('VALIDATION_FAILED');
    }
    // Refusals that come first keep their answers: nobody else's greetie, a greetie without gifts.
    expect((await start(bob, g.id, { withdrawalConsent: undefined })).statusCode).toBe(404);
    const noGifts = await call(t.app, alice, 'POST', '/api/greetie', { recipient: { mobileNumber: bob.mobileNumber } });
    const none = await start(alice, (noGifts.json() as Greetie).id, { withdrawalConsent: undefined });
    expect(none.statusCode).toBe(409);
    expect((none.json() as { code: string }).code).toBe('GREETIE_NO_GIFTS');
  });

  it('the consent is recorded with the payment: consentedAt and the terms version, in the same row; a repeat without it is refused', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    expect(p.consentedAt).not.toBeNull();
    // Given as the payment was made: the same instant, the same write.
    expect(p.consentedAt).toBe(p.createdAt);
    const { rows } = await sql<{ consented_at: Date; terms_version: string }>`SELECT consented_at, terms_version FROM payment WHERE id = ${p.id}`.execute(t.db.db);
    expect(rows[0]!.terms_version).toBe(TERMS_VERSION);
    expect(rows[0]!.consented_at.toISOString()).toBe(p.consentedAt);
    // GET /payment shows it too.
    const read = await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`);
    expect((read.json() as Payment).consentedAt).toBe(p.consentedAt);
    // Asked again while it is pending, without the consent: refused, the pending one unchanged.
    const tablesBefore = await tables();
    const again = await start(alice, g.id, { withdrawalConsent: undefined });
    expect(again.statusCode).toBe(400);
    expect((again.json() as { code: string }).code).toBe('CONSENT_REQUIRED');
    expect(await tables()).toBe(tablesBefore);
  });

  it('a paid greetie: 409 GREETIE_NOT_PAYABLE', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    await settle(p.id, 'paid');
    const res = await start(alice, g.id);
    expect(res.statusCode).toBe(409);
    expect((res.json() as { code: string }).code).toBe('GREETIE_NOT_PAYABLE');
  });
});

async function settle(paymentId: string, outcome: string) {
  const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${paymentId}`, payload: { outcome } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Payment;
}

describe('sandbox: settling delivers the callback; each outcome', () => {
  const cases: [string, string, string, string | null][] = [
    ['paid', 'paid', 'scheduled', null],
    ['declined', 'declined', 'draft', 'RF07'],
    ['error', 'error', 'draft', 'BANKIDUNKN'],
    ['cancelled', 'cancelled', 'draft', 'BANKIDCL'],
    ['timeout', 'expired', 'draft', 'TM01'],
  ];
  for (const [outcome, status, greetie, errorCode] of cases) {
    it(`${outcome} → payment ${status}, greetie ${greetie}`, async () => {
      const g = await draftWithGifts(alice);
      const p = await started(g.id);
      const listed = await t.app.inject({ method: 'GET', url: '/api/sandbox/payments' });
      expect((listed.json() as Payment[]).map((x) => x.id)).toContain(p.id);
      const after = await settle(p.id, outcome);
      expect(after).toMatchObject({ id: p.id, status, errorCode, token: null, qrCode: null });
      expect(await greetieStatus(g.id)).toBe(greetie);
      expect(await voucherCount(g.id)).toBe(outcome === 'paid' ? 2 : 0);
      const latest = await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`);
      expect(latest.json()).toMatchObject({ id: p.id, status });
      const listedAfter = await t.app.inject({ method: 'GET', url: '/api/sandbox/payments' });
      expect((listedAfter.json() as Payment[]).map((x) => x.id)).not.toContain(p.id);
      // Settled once: a second settle is 409 and changes nothing.
      const before = await tables();
      const again = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${p.id}`, payload: { outcome: 'paid' } });
      expect(again.statusCode).toBe(409);
      expect(await tables()).toBe(before);
    });
  }

  it('a declined payment can be started again: a new payment', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    await settle(p.id, 'declined');
    const again = await started(g.id);
    expect(again.id).not.toBe(p.id);
    expect(await greetieStatus(g.id)).toBe('awaitingPayment');
  });

  it('vouchers: one per gift, with the gift\'s merchant, product, source and amount, unguessable ids, no code, not redeemed', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    await settle(p.id, 'paid');
    const { rows } = await sql<Record<string, unknown>>`
      SELECT v.id, v.product_id, v.source, v.amount, v.code, v.is_redeemed, v.redeemed_at, v.expires_at
        FROM voucher v JOIN greetie_gift gg ON gg.id = v.gift_id WHERE v.greetie_id = ${g.id} ORDER BY gg.position`.execute(t.db.db);
    expect(rows.map((r) => [r.product_id, r.source, r.amount, r.code, r.is_redeemed, r.redeemed_at, r.expires_at])).toEqual([
      [products.fixed, 'InStore', 14900, null, false, null, null],
      [products.value, 'Charity', 20000, null, false, null, null],
    ]);
    for (const r of rows) expect(String(r.id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('404 for an unknown payment; 400 for an unknown outcome', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sandbox/payments/00000000-0000-4000-8000-000000000000', payload: { outcome: 'paid' } });
    expect(res.statusCode).toBe(404);
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    const bad = await t.app.inject({ method: 'POST', url: `/api/sandbox/payments/${p.id}`, payload: { outcome: 'maybe' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /api/greetie/paymentCallBack', () => {
  it('20 concurrent duplicate callbacks and status checks: vouchers issued exactly once', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    const { instruction_id } = await paymentRow(p.id);
    const body = await sandbox.settle(instruction_id, 'paid');
    expect(body).not.toBeNull();
    t.clock.advance(10_000);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => callback(body)),
      ...Array.from({ length: 10 }, () => call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`)),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    expect(await voucherCount(g.id)).toBe(2);
    expect((await paymentRow(p.id)).status).toBe('paid');
    expect(await greetieStatus(g.id)).toBe('scheduled');
    // Late duplicates change nothing.
    const before = await tables();
    await callback(body);
    expect(await tables()).toBe(before);
  });

  it('forged: an unknown id, or a body the provider contradicts, changes nothing at all (200)', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    const { instruction_id } = await paymentRow(p.id);
    const before = await tables();
    const forged = [
      { id: 'A'.repeat(32), status: 'PAID', amount: 349 },
      { id: instruction_id, status: 'PAID', amount: 349, payeePaymentReference: g.id.replaceAll('-', '') },
      { id: instruction_id, status: 'DECLINED', errorCode: 'RF07' },
      { id: 'not-an-instruction-id', status: 'PAID' },
    ];
    for (const body of forged) {
      const res = await callback(body);
      expect(res.statusCode).toBe(200);
    }
    expect(await tables()).toBe(before);
    expect(await greetieStatus(g.id)).toBe('awaitingPayment');
  });

  it('out of order: a late "declined" after paid, or "paid" after cancelled, changes nothing', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    const { instruction_id } = await paymentRow(p.id);
    await settle(p.id, 'paid');
    const before = await tables();
    await callback({ id: instruction_id, status: 'DECLINED', errorCode: 'RF07' });
    expect(await tables()).toBe(before);

    const g2 = await draftWithGifts(alice);
    const p2 = await started(g2.id);
    await settle(p2.id, 'cancelled');
    const before2 = await tables();
    await callback({ id: (await paymentRow(p2.id)).instruction_id, status: 'PAID' });
    expect(await tables()).toBe(before2);
  });

  it('a malformed body is 400', async () => {
    const res = await callback({ status: 'PAID' });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/greetie/{id}/payment', () => {
  it('the latest payment; an old pending one is checked with the provider (no callback needed)', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    await sandbox.settle((await paymentRow(p.id)).instruction_id, 'paid');
    // Fresh: not asked yet.
    const fresh = await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`);
    expect(fresh.json()).toMatchObject({ id: p.id, status: 'pending' });
    t.clock.advance(5_000);
    const checked = await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`);
    expect(checked.json()).toMatchObject({ id: p.id, status: 'paid' });
    expect(await voucherCount(g.id)).toBe(2);
    expect(await greetieStatus(g.id)).toBe('scheduled');
  });

  it('404 before any payment, for anybody else, and 401 for a visitor', async () => {
    const g = await draftWithGifts(alice);
    expect((await call(t.app, alice, 'GET', `/api/greetie/${g.id}/payment`)).json()).toMatchObject({ code: 'PAYMENT_NOT_FOUND' });
    await started(g.id);
    expect((await call(t.app, bob, 'GET', `/api/greetie/${g.id}/payment`)).statusCode).toBe(404);
    expect((await call(t.app, undefined, 'GET', `/api/greetie/${g.id}/payment`)).statusCode).toBe(401);
  });
});

describe('DELETE /api/greetie/{id} while awaiting payment', () => {
  it('cancels the request with the provider, then deletes', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    const { instruction_id } = await paymentRow(p.id);
    const res = await call(t.app, alice, 'DELETE', `/api/greetie/${g.id}`);
    expect(res.statusCode, res.body).toBe(204);
    const { rows } = await sql<{ status: string }>`SELECT status FROM sandbox_payment_request WHERE instruction_id = ${instruction_id}`.execute(t.db.db);
    expect(rows[0]!.status).toBe('CANCELLED');
    expect((await sql`SELECT 1 FROM greetie WHERE id = ${g.id}`.execute(t.db.db)).rows).toHaveLength(0);
  });

  it('paid meanwhile (no callback yet): 409, the payment applied as paid, vouchers issued', async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    await sandbox.settle((await paymentRow(p.id)).instruction_id, 'paid');
    const res = await call(t.app, alice, 'DELETE', `/api/greetie/${g.id}`);
    expect(res.statusCode).toBe(409);
    expect((res.json() as { code: string }).code).toBe('GREETIE_NOT_DELETABLE');
    expect(await greetieStatus(g.id)).toBe('scheduled');
    expect(await voucherCount(g.id)).toBe(2);
  });

  it("anybody else's delete cancels nothing", async () => {
    const g = await draftWithGifts(alice);
    const p = await started(g.id);
    const before = await tables();
    expect((await call(t.app, bob, 'DELETE', `/api/greetie/${g.id}`)).statusCode).toBe(404);
    expect(await tables()).toBe(before);
    expect((await paymentRow(p.id)).status).toBe('pending');
  });
});
