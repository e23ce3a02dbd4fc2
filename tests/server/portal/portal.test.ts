import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { MobileUser } from '../../../contract/auth.ts';
import { PortalRedemption, PortalSummary } from '../../../contract/portal.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { EXIT, runAdmin } from '../../../server/admin/commands.ts';
import { demoMerchants, demoOwnerNumber } from '../../../server/merchant/seed.ts';
import { call, freshNumber, person, type Person, type greetieTestApp } from '../greetie/support.ts';
import { portalFixture } from '../helpers.ts';
import { MERCHANT_CODE, deliver, paidGreetie, voucherIds, type VoucherCatalogue } from '../voucher/support.ts';

/**
 * The merchant portal (API.md "Merchant portal") on real PostgreSQL: who may call what (404 for
 * anybody who does not work for the merchant, 403 OWNER_ONLY for staff on the owner's calls), the
 * operator's staff command and the link at first sign-in, the summary's figures and the
 * settlement file to the öre, and a new till code that ends the old one at once.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let owner: Person;
let staff: Person;
let stranger: Person;
let customer: Person;

async function admin(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(args, {
    env: { LANG: 'sv_SE.UTF-8' },
    readStdin: async () => undefined,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    openDb: async () => ({ db: t.db.db, close: async () => {} }),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  ({ t, shop, owner, staff, stranger } = await portalFixture());
  customer = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

const portal = (who: Person | undefined, path: string, method: 'GET' | 'POST' = 'GET') =>
  call(t.app, who, method, `/api/portal/merchants/${shop.merchantId}${path}`, method === 'POST' ? {} : undefined);

/** The customer's vouchers of a greetie with these gifts, delivered. */
async function customersVouchers(...gifts: (string | { productId: string; amount: number })[]): Promise<{ greetieId: string; sender: Person; ids: string[] }> {
  const sender = await person(t.app);
  const g = await paidGreetie(t.app, sender, customer.mobileNumber, gifts);
  await deliver(t.app, g.id);
  return { greetieId: g.id, sender, ids: await voucherIds(t.db.db, g.id) };
}

const redeem = (voucherId: string, amount?: number, merchantCode = MERCHANT_CODE) =>
  call(t.app, customer, 'POST', '/api/voucher/redeem', { voucherId, merchantCode, ...(amount === undefined ? {} : { amount }) });

describe('who works for a merchant', () => {
  it('merchant staff add links a number that has never signed in; its first sign-in finds the merchant in MobileUser.merchants', async () => {
    const number = freshNumber();
    const added = await admin(['merchant', 'staff', 'add', '--merchant', shop.merchantId, '--number', number.replace('+46', '0'), '--role', 'staff']);
    expect(added.err).toBe('');
    expect(added.code).toBe(EXIT.ok);
    expect((await admin(['merchant', 'staff', 'list', '--merchant', shop.merchantId])).out).toContain(`${number}  staff  har inte loggat in ännu`);

    const newcomer = await person(t.app, number);
    const me = (await call(t.app, newcomer, 'GET', '/api/auth/my')).json() as MobileUser;
    expect(Value.Check(MobileUser, me)).toBe(true);
    expect(me.merchants).toEqual([{ id: shop.merchantId, name: 'Kafé Inlösen', role: 'staff' }]);
    expect((await call(t.app, newcomer, 'GET', '/api/portal/merchants')).json()).toEqual([{ id: shop.merchantId, name: 'Kafé Inlösen', role: 'staff' }]);
    expect((await admin(['merchant', 'staff', 'list', '--merchant', shop.merchantId])).out).toContain(`${number}  staff  har loggat in`);

    // Removed: the portal is gone for them at once.
    expect((await admin(['merchant', 'staff', 'remove', '--merchant', shop.merchantId, '--number', number])).code).toBe(EXIT.ok);
    expect((await call(t.app, newcomer, 'GET', '/api/portal/merchants')).json()).toEqual([]);
    expect((await call(t.app, newcomer, 'GET', `/api/portal/merchants/${shop.merchantId}/summary`)).statusCode).toBe(404);
    const again = await admin(['merchant', 'staff', 'remove', '--merchant', shop.merchantId, '--number', number]);
    expect(again.code).toBe(EXIT.notFound);
  });

  it('a number already signed in is linked at once; most people work for no merchant', async () => {
    expect(((await call(t.app, owner, 'GET', '/api/auth/my')).json() as MobileUser).merchants).toEqual([{ id: shop.merchantId, name: 'Kafé Inlösen', role: 'owner' }]);
    expect(((await call(t.app, stranger, 'GET', '/api/auth/my')).json() as MobileUser).merchants).toEqual([]);
    expect((await call(t.app, stranger, 'GET', '/api/portal/merchants')).json()).toEqual([]);
  });

  it('the staff command refuses bad input with the API\'s messages', async () => {
    expect((await admin(['merchant', 'staff', 'add', '--merchant', shop.merchantId, '--number', '08-123 45 67', '--role', 'owner'])).code).toBe(EXIT.badInput);
    expect((await admin(['merchant', 'staff', 'add', '--merchant', shop.merchantId, '--number', freshNumber(), '--role', 'boss'])).code).toBe(EXIT.badInput);
    expect((await admin(['merchant', 'staff', 'add', '--merchant', '4d0e1a2b-0000-4000-8000-999999999999', '--number', freshNumber(), '--role', 'owner'])).code).toBe(EXIT.notFound);
    expect((await admin(['merchant', 'staff', 'add', '--number', freshNumber(), '--role', 'owner'])).code).toBe(EXIT.badInput);
  });
});

describe('access to the portal calls', () => {
  const memberCalls = ['/summary', '/redemptions', '/summary?from=2026-11-01&to=2026-12-01'];
  const ownerCalls: [string, 'GET' | 'POST'][] = [
    ['/redemptions.csv', 'GET'],
    ['/code', 'POST'],
  ];

  it('a visitor gets 401, a signed-in person who does not work for the merchant 404 on every call, as for one that does not exist', async () => {
    for (const path of [...memberCalls, ...ownerCalls.map(([p]) => p)]) {
      const method = path === '/code' ? 'POST' : 'GET';
      expect((await portal(undefined, path, method)).statusCode, path).toBe(401);
      const res = await portal(stranger, path, method);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().code).toBe('MERCHANT_NOT_FOUND');
    }
    const unknown = await call(t.app, stranger, 'GET', '/api/portal/merchants/4d0e1a2b-0000-4000-8000-999999999999/summary');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('MERCHANT_NOT_FOUND');
  });

  it("staff read the summary and the redemptions, and get 403 OWNER_ONLY on the owner's calls (nothing changes)", async () => {
    for (const path of memberCalls) expect((await portal(staff, path)).statusCode, path).toBe(200);
    const { rows: before } = await sql<{ code_hash: string }>`SELECT code_hash FROM merchant WHERE id = ${shop.merchantId}`.execute(t.db.db);
    for (const [path, method] of ownerCalls) {
      const res = await portal(staff, path, method);
      expect(res.statusCode, path).toBe(403);
      expect(res.json()).toMatchObject({ code: 'OWNER_ONLY', message: 'Bara handlarens ägare kan göra det här.' });
    }
    const { rows: after } = await sql<{ code_hash: string }>`SELECT code_hash FROM merchant WHERE id = ${shop.merchantId}`.execute(t.db.db);
    expect(after).toEqual(before);
  });

  it('the owner of one merchant is nobody at another', async () => {
    const res = await call(t.app, owner, 'GET', `/api/portal/merchants/${shop.otherMerchantId}/summary`);
    expect(res.statusCode).toBe(404);
  });

  it('a bad period or cursor is 400, with the problem named', async () => {
    const backwards = await portal(owner, '/summary?from=2026-11-20&to=2026-11-01');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().code).toBe('PERIOD_INVALID');
    expect((await portal(owner, '/summary?from=2026-02-30')).statusCode).toBe(400);
    expect((await portal(owner, '/summary?from=26-11-01')).statusCode).toBe(400);
    const cursor = await portal(owner, '/redemptions?cursor=bm90LWEtY3Vyc29y');
    expect(cursor.statusCode).toBe(400);
    expect(cursor.json().code).toBe('INVALID_CURSOR');
  });
});

/** The CSV's rows as fields (after the BOM and the header), split on `;` (no field here holds one). */
function csvRows(body: string): string[][] {
  return body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(';'));
}

const ore = (kronor: string) => {
  const [whole, cents] = kronor.split(',');
  return Number(whole) * 100 + Number(cents);
};

describe('the summary and the settlement file, to the öre', () => {
  let fixedId: string;
  let valueId: string;
  let expiringId: string;
  let undoneRedemption: string;

  beforeAll(async () => {
    // A: fixed 149 kr, redeemed whole.
    fixedId = (await customersVouchers(shop.inStore)).ids[0]!;
    expect((await redeem(fixedId)).statusCode).toBe(200);
    // B: a value voucher of 1 000 kr: 250 kr, then 300 kr undone at the till.
    valueId = (await customersVouchers({ productId: shop.valueInStore, amount: 100000 })).ids[0]!;
    expect((await redeem(valueId, 25000)).statusCode).toBe(200);
    const second = await redeem(valueId, 30000);
    expect(second.statusCode).toBe(200);
    undoneRedemption = (second.json() as Voucher).redemptions.at(-1)!.id;
    const undo = await call(t.app, customer, 'POST', `/api/voucher/${valueId}/redemptions/${undoneRedemption}/undo`, { merchantCode: MERCHANT_CODE });
    expect(undo.statusCode, undo.body).toBe(200);
    // C: 500 kr, 100 kr used, then it expires with 400 kr left.
    expiringId = (await customersVouchers({ productId: shop.valueInStore, amount: 50000 })).ids[0]!;
    expect((await redeem(expiringId, 10000)).statusCode).toBe(200);
    await sql`UPDATE voucher SET expires_at = ${new Date(t.clock.ms - 1000)} WHERE id = ${expiringId}`.execute(t.db.db);
    // D: 149 kr in a greetie its sender cancels (refunded): not issued.
    const cancelled = await customersVouchers(shop.inStore);
    const res = await call(t.app, cancelled.sender, 'POST', `/api/greetie/${cancelled.greetieId}/cancel`, {});
    expect(res.statusCode, res.body).toBe(200);
    // E: 149 kr given to the other merchant's charity: not issued here any more.
    const donated = (await customersVouchers(shop.inStore)).ids[0]!;
    expect((await call(t.app, customer, 'POST', `/api/voucher/${donated}/donate`, { productId: shop.charityRange })).statusCode).toBe(200);
    // F: the other merchant's voucher, redeemed there.
    const other = (await customersVouchers(shop.otherInStore)).ids[0]!;
    expect((await redeem(other, undefined, 'BOKA1357')).statusCode).toBe(200);
  });

  const expected: PortalSummary = {
    issued: { count: 3, amount: 14900 + 100000 + 50000 },
    redeemed: { count: 3, amount: 14900 + 25000 + 10000 },
    outstanding: { count: 1, amount: 75000 },
    expired: { count: 1, amount: 40000 },
  };

  it('every figure follows the definitions: partial redemptions count, undone ones do not, cancelled and donated vouchers are not issued', async () => {
    const res = await portal(staff, '/summary');
    expect(res.statusCode).toBe(200);
    expect(Value.Check(PortalSummary, res.json())).toBe(true);
    expect(res.json()).toEqual(expected);
    // What was issued is what was redeemed, what is outstanding and what expired.
    expect(expected.issued.amount).toBe(expected.redeemed.amount + expected.outstanding.amount + expected.expired.amount);
  });

  it('the period is Europe/Stockholm days: the clock\'s day holds everything, the day after nothing issued or redeemed', async () => {
    // The clock stands at 2026-11-21 09:00 in Stockholm.
    expect((await portal(owner, '/summary?from=2026-11-21&to=2026-11-22')).json()).toEqual(expected);
    expect((await portal(owner, '/summary?from=2026-11-22')).json()).toEqual({ ...expected, issued: { count: 0, amount: 0 }, redeemed: { count: 0, amount: 0 } });
    expect((await portal(owner, '/summary?to=2026-11-21')).json()).toEqual({ ...expected, issued: { count: 0, amount: 0 }, redeemed: { count: 0, amount: 0 } });
  });

  it('the redemptions, newest first, undone ones marked, paged by Link rel="next"', async () => {
    const first = await portal(staff, '/redemptions?limit=3');
    expect(first.statusCode).toBe(200);
    const page1 = first.json() as PortalRedemption[];
    expect(page1).toHaveLength(3);
    for (const r of page1) expect(Value.Check(PortalRedemption, r)).toBe(true);
    const link = String(first.headers.link);
    expect(link).toMatch(/^<\/api\/portal\/merchants\/[0-9a-f-]+\/redemptions\?limit=3&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const second = await call(t.app, staff, 'GET', link.slice(1, link.indexOf('>')));
    const page2 = second.json() as PortalRedemption[];
    expect(second.headers.link).toBeUndefined();
    const all = [...page1, ...page2];
    expect(all).toHaveLength(4);
    expect(all.map((r) => r.amount).sort((a, b) => a - b)).toEqual([10000, 14900, 25000, 30000]);
    expect(all.find((r) => r.id === undoneRedemption)).toMatchObject({ undone: true, amount: 30000, voucherId: valueId, via: 'code', productName: 'Presentkort i kaféet' });
    expect(all.filter((r) => r.undone)).toHaveLength(1);
    const times = all.map((r) => `${r.redeemedAt}/${r.id}`);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('the settlement file: BOM, semicolons, a Swedish header, kronor with a decimal comma; its rows not undone sum to the redeemed amount', async () => {
    const res = await portal(owner, '/redemptions.csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment; filename="[^"]+\.csv"$/);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header, ...rows] = csvRows(res.body);
    expect(header).toEqual(['Inlöst (svensk tid)', 'Inlösen-id', 'Presentkort-id', 'Produkt', 'Belopp', 'Sätt', 'Ångrad']);
    expect(rows).toHaveLength(4);
    const belopp = header!.indexOf('Belopp');
    const undone = header!.indexOf('Ångrad');
    for (const r of rows) {
      expect(r[belopp]).toMatch(/^\d+,\d\d$/);
      expect(r[0]).toMatch(/^2026-11-21 09:00:\d\d$/);
    }
    expect(rows.map((r) => r[belopp]).sort()).toEqual(['100,00', '149,00', '250,00', '300,00']);
    expect(rows.find((r) => r[1] === undoneRedemption)![undone]).toBe('Ja');
    expect(rows.filter((r) => r[undone] === 'Nej')).toHaveLength(3);
    const sum = rows.filter((r) => r[undone] === 'Nej').reduce((s, r) => s + ore(r[belopp]!), 0);
    expect(sum).toBe(expected.redeemed.amount);
    // A period with nothing in it: only the header.
    expect(csvRows((await portal(owner, '/redemptions.csv?from=2026-11-22')).body)).toHaveLength(1);
  });

  it('a redemption keeps the name its product had when it was redeemed (migration 030): a rename changes the ones after it, in the list and the file', async () => {
    const before = 'Presentkort i kaféet';
    const after = 'Kaféets "nya" presentkort';
    await sql`UPDATE product SET name = ${after} WHERE id = ${shop.valueInStore}`.execute(t.db.db);
    try {
      const later = (await customersVouchers({ productId: shop.valueInStore, amount: 20000 })).ids[0]!;
      const res = await redeem(later, 5000);
      expect(res.statusCode, res.body).toBe(200);
      const made = (res.json() as Voucher).redemptions.at(-1)!.id;
      const list = (await portal(owner, '/redemptions')).json() as PortalRedemption[];
      expect(list).toHaveLength(5);
      expect(list.find((r) => r.id === made)).toMatchObject({ productName: after, amount: 5000, voucherId: later, undone: false });
      // The earlier ones at this product, the undone one too, as they were.
      expect(list.filter((r) => r.voucherId === valueId || r.voucherId === expiringId).map((r) => r.productName)).toEqual([before, before, before]);
      const [header, ...rows] = csvRows((await portal(owner, '/redemptions.csv')).body);
      const product = header!.indexOf('Produkt');
      // (quoted as CSV quotes a field with a quote in it)
      expect(rows.find((r) => r[1] === made)![product]).toBe('"Kaféets ""nya"" presentkort"');
      expect(rows.find((r) => r[1] === undoneRedemption)![product]).toBe(before);
      // Undone afterwards: the row keeps its name, and the page says so.
      const undo = await call(t.app, customer, 'POST', `/api/voucher/${later}/redemptions/${made}/undo`, { merchantCode: MERCHANT_CODE });
      expect(undo.statusCode, undo.body).toBe(200);
      const again = (await portal(staff, '/redemptions')).json() as PortalRedemption[];
      expect(again.find((r) => r.id === made)).toMatchObject({ productName: after, undone: true });
    } finally {
      await sql`UPDATE product SET name = ${before} WHERE id = ${shop.valueInStore}`.execute(t.db.db);
    }
  });
});

describe('a new till code', () => {
  it('is shown once to the owner; the old code stops at /voucher/redeem at once, even in a process that knew it right', async () => {
    // The old code is known right in this process (its fast path remembers it).
    const warm = (await customersVouchers(shop.inStore)).ids[0]!;
    expect((await redeem(warm)).statusCode).toBe(200);
    const voucher = (await customersVouchers(shop.inStore)).ids[0]!;

    const res = await portal(owner, '/code', 'POST');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { merchantCode } = res.json() as { merchantCode: string };
    expect(merchantCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const { rows } = await sql<{ code_hash: string }>`SELECT code_hash FROM merchant WHERE id = ${shop.merchantId}`.execute(t.db.db);
    expect(rows[0]!.code_hash).toMatch(/^scrypt\$/);
    expect(rows[0]!.code_hash).not.toContain(merchantCode);

    const old = await redeem(voucher);
    expect(old.statusCode).toBe(400);
    expect(old.json().code).toBe('MERCHANT_CODE_WRONG');
    expect((await redeem(voucher, undefined, merchantCode)).statusCode).toBe(200);
    // Each rotation ends the one before.
    const next = (await portal(owner, '/code', 'POST')).json() as { merchantCode: string };
    expect(next.merchantCode).not.toBe(merchantCode);
    const third = (await customersVouchers(shop.inStore)).ids[0]!;
    expect((await redeem(third, undefined, merchantCode)).json().code).toBe('MERCHANT_CODE_WRONG');
    expect((await redeem(third, undefined, next.merchantCode)).statusCode).toBe(200);
  });
});

describe('the demo merchants in the sandbox', () => {
  it("each has an owner whose number signs in to its portal; after the owner's new code the sandbox shows merchantCode null", async () => {
    const demo = demoMerchants[1]!;
    const list = (await call(t.app, undefined, 'GET', '/api/sandbox/merchants')).json() as { id: string; merchantCode: string | null; ownerNumber: string }[];
    expect(list).toHaveLength(demoMerchants.length);
    for (const m of demoMerchants) expect(list).toContainEqual(expect.objectContaining({ id: m.id, merchantCode: m.merchantCode, ownerNumber: demoOwnerNumber(m) }));
    expect(new Set(list.map((m) => m.ownerNumber)).size).toBe(demoMerchants.length);

    const demoOwner = await person(t.app, demoOwnerNumber(demo));
    expect((await call(t.app, demoOwner, 'GET', '/api/portal/merchants')).json()).toEqual([{ id: demo.id, name: demo.name, role: 'owner' }]);
    expect((await call(t.app, demoOwner, 'POST', `/api/portal/merchants/${demo.id}/code`, {})).statusCode).toBe(200);
    const after = (await call(t.app, undefined, 'GET', '/api/sandbox/merchants')).json() as { id: string; merchantCode: string | null }[];
    expect(after.find((m) => m.id === demo.id)!.merchantCode).toBeNull();
    expect(after.find((m) => m.id === demoMerchants[0]!.id)!.merchantCode).toBe(demoMerchants[0]!.merchantCode);
  });
});
