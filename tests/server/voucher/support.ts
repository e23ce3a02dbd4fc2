import { expect } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../server/db/index.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import { hashMerchantCode } from '../../../server/merchant/code.ts';
import { deliverOne } from '../../../server/delivery/rules.ts';
import { loadCodes } from '../../../server/voucher/codes.ts';
import { call, type Person } from '../greetie/support.ts';

/**
 * Vouchers made the way the product makes them: a greetie with gifts, paid through the sandbox
 * provider (startpayment, then the sandbox settles it and its callback goes through the real
 * route), which issues one voucher per gift.
 */

/** The merchant code of the test's own merchant (stored only as its scrypt hash). */
export const MERCHANT_CODE = 'KAFE2468';
/** Another merchant's code: right somewhere, wrong here. */
export const OTHER_MERCHANT_CODE = 'BOKA1357';

export interface VoucherCatalogue {
  merchantId: string;
  otherMerchantId: string;
  /** InStore, fixed 149 kr, valid 365 days. */
  inStore: string;
  /** Charity, fixed 50 kr. */
  charity: string;
  /** Code, fixed 100 kr, with a pool of codes (each voucher takes one at payment). */
  code: string;
  /** The other merchant's InStore product. */
  otherInStore: string;
  /** InStore, a value voucher: 100–1000 kr (used in parts). */
  valueInStore: string;
  /** Charity, a range: 10–500 kr. */
  charityRange: string;
}

async function merchant(db: Db, name: string, code: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO merchant (name, description, logo_url, category, sources, active, code_hash)
    VALUES (${name}, '', '/merchants/x.svg', 'cafe', '{InStore,Charity,Code}', true, ${await hashMerchantCode(code)})
    RETURNING id`.execute(db);
  return rows[0]!.id;
}

async function rangeProduct(db: Db, merchantId: string, name: string, source: 'InStore' | 'Charity', min: number, max: number): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO product (merchant_id, name, source, min_amount, max_amount, valid_days, active)
    VALUES (${merchantId}, ${name}, ${source}, ${min}, ${max}, 365, true)
    RETURNING id`.execute(db);
  return rows[0]!.id;
}

async function product(db: Db, merchantId: string, name: string, source: 'InStore' | 'Charity' | 'Code', price: number): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO product (merchant_id, name, source, price, valid_days, active)
    VALUES (${merchantId}, ${name}, ${source}, ${price}, 365, true)
    RETURNING id`.execute(db);
  return rows[0]!.id;
}

export async function voucherCatalogue(db: Db): Promise<VoucherCatalogue> {
  const merchantId = await merchant(db, 'Kafé Inlösen', MERCHANT_CODE);
  const otherMerchantId = await merchant(db, 'Bokhandeln', OTHER_MERCHANT_CODE);
  const code = await product(db, merchantId, 'Presentkod för webbutiken', 'Code', 10000);
  await loadCodes(db, code, Array.from({ length: 300 }, (_, i) => `WEBB-${i}-${Math.random().toString(36).slice(2, 8).toUpperCase()}`), new Date());
  return {
    code,
    merchantId,
    otherMerchantId,
    inStore: await product(db, merchantId, 'Fika för två', 'InStore', 14900),
    charity: await product(db, merchantId, 'Skänk en måltid', 'Charity', 5000),
    otherInStore: await product(db, otherMerchantId, 'En pocketbok', 'InStore', 12900),
    valueInStore: await rangeProduct(db, merchantId, 'Presentkort i kaféet', 'InStore', 10000, 100000),
    charityRange: await rangeProduct(db, otherMerchantId, 'Skänk valfritt belopp', 'Charity', 1000, 50000),
  };
}

/**
 * A greetie from `sender` to `recipientNumber` with these products as gifts (a product id, or a
 * value product with its amount), paid: its vouchers exist.
 */
export async function paidGreetie(
  app: FastifyInstance,
  sender: Person,
  recipientNumber: string,
  productIds: (string | { productId: string; amount: number })[],
): Promise<Greetie> {
  const created = await call(app, sender, 'POST', '/api/greetie/createv2', {
    recipient: { mobileNumber: recipientNumber, name: 'Mottagaren' },
    message: 'Grattis!',
    gifts: productIds.map((g) => (typeof g === 'string' ? { productId: g } : g)),
  });
  expect(created.statusCode, created.body).toBe(200);
  const greetie = created.json() as Greetie;
  // A sender needs a name (startpayment is 409 SENDER_NAME_REQUIRED without): one is given if missing.
  if ((await call(app, sender, 'GET', '/api/auth/my')).json().name === null) {
    expect((await call(app, sender, 'POST', '/api/mobileuser', { name: 'Avsändaren' })).statusCode).toBe(200);
  }
  const started = await call(app, sender, 'POST', `/api/greetie/${greetie.id}/startpayment`, { withdrawalConsent: true });
  expect(started.statusCode, started.body).toBe(200);
  const settled = await app.inject({ method: 'POST', url: `/api/sandbox/payments/${(started.json() as Payment).id}`, payload: { outcome: 'paid' } });
  expect(settled.statusCode, settled.body).toBe(200);
  return greetie;
}

/**
 * Delivers a paid greetie now through the real delivery (server/delivery: the SMS, the greetie
 * delivered at the app's clock, its vouchers' expiry counted from then), as the worker would.
 */
export async function deliver(app: FastifyInstance, greetieId: string): Promise<void> {
  expect(await deliverOne({ db: app.db, config: app.config, services: app.services }, greetieId)).toBe('delivered');
}

/** A voucher's code, as its pool gave it at payment. */
export async function codeOf(db: Db, voucherId: string): Promise<string> {
  const { rows } = await sql<{ code: string }>`SELECT code FROM voucher WHERE id = ${voucherId}`.execute(db);
  if (!rows[0]?.code) throw new Error('the voucher has no code');
  return rows[0].code;
}

/** The voucher ids of a greetie, in its gifts' order. */
export async function voucherIds(db: Db, greetieId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    SELECT v.id FROM voucher v JOIN greetie_gift gg ON gg.id = v.gift_id WHERE v.greetie_id = ${greetieId} ORDER BY gg.position`.execute(db);
  return rows.map((r) => r.id);
}

/** Everything a redeem touches, to prove a refusal changed nothing but the attempt it recorded. */
export async function voucherTable(db: Db): Promise<string> {
  const { rows } = await sql<{ s: string }>`SELECT coalesce(json_agg(v ORDER BY v.id), '[]')::text AS s FROM voucher v`.execute(db);
  return rows[0]!.s;
}

export async function attempts(db: Db, voucherId: string): Promise<{ outcome: string; ok: boolean; merchant_id: string; user_id: string | null }[]> {
  const { rows } = await sql<{ outcome: string; ok: boolean; merchant_id: string; user_id: string | null }>`
    SELECT outcome, ok, merchant_id, user_id FROM redeem_attempt WHERE voucher_id = ${voucherId} ORDER BY id`.execute(db);
  return rows;
}
