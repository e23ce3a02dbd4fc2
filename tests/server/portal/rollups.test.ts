import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { createTestDb, type TestDb } from '../helpers.ts';
import { summaryOf, type Period } from '../../../server/portal/queries.ts';
import { down as rollupsDown, up as rollupsUp } from '../../../server/db/migrations/023_portal_rollups.ts';
import { down as openDown, up as openUp } from '../../../server/db/migrations/027_portal_open.ts';
import { foldPortalOpen } from '../../../server/portal/fold.ts';

/**
 * The summary's figures from the rollups (migration 023's per-day, 027's open vouchers per expiry
 * day, its deltas folded or not) are, after any mix of writes,
 * exactly what the contract's definitions give computed from scratch over every voucher and
 * redemption (the queries the summary ran before the rollup, kept here as the reference): issues
 * of several gifts at once, partial redemptions, undos, cancels, donations, expiries set, greeties
 * deleted (cancelled or not), at moments on both sides of Stockholm midnights and on the days
 * summer time starts and ends. And the migration's backfill gives the same figures for data
 * written before the triggers existed.
 */

const dayStart = (day: string) => sql`(${day}::date::timestamp AT TIME ZONE 'Europe/Stockholm')`;

async function fromScratch(db: TestDb['db'], merchantId: string, period: Period, now: string) {
  const inPeriod = (col: string) =>
    sql`(${period.from === null ? sql`true` : sql`${sql.ref(col)} >= ${dayStart(period.from)}`} AND ${period.to === null ? sql`true` : sql`${sql.ref(col)} < ${dayStart(period.to)}`})`;
  const { rows } = await sql<Record<string, number>>`
    SELECT (SELECT count(*)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled') AND ${inPeriod('v.created_at')}) AS issued_count,
           (SELECT coalesce(sum(v.amount), 0)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled') AND ${inPeriod('v.created_at')}) AS issued_amount,
           (SELECT count(*)::int FROM voucher_redemption r WHERE r.merchant_id = ${merchantId} AND r.undone_at IS NULL AND ${inPeriod('r.redeemed_at')}) AS redeemed_count,
           (SELECT coalesce(sum(r.amount), 0)::int FROM voucher_redemption r WHERE r.merchant_id = ${merchantId} AND r.undone_at IS NULL AND ${inPeriod('r.redeemed_at')}) AS redeemed_amount,
           (SELECT count(*)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
               AND NOT coalesce(v.expires_at <= ${now}::timestamptz, false)
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS outstanding_count,
           (SELECT coalesce(sum(v.balance), 0)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
               AND NOT coalesce(v.expires_at <= ${now}::timestamptz, false)
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS outstanding_amount,
           (SELECT count(*)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
               AND coalesce(v.expires_at <= ${now}::timestamptz, false)
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS expired_count,
           (SELECT coalesce(sum(v.balance), 0)::int FROM voucher v WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
               AND coalesce(v.expires_at <= ${now}::timestamptz, false)
               AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')) AS expired_amount`.execute(db);
  return rows[0]!;
}

async function viaRollup(db: TestDb['db'], merchantId: string, period: Period, now: string) {
  return summaryOf(db, merchantId, period, new Date(now));
}

/** A small seeded generator (mulberry32) for the mix's choices (ROLLUP_SEED to try others). */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]! };
}

// Expiries on both sides of a UTC midnight (the open-voucher rollup's days are UTC days).
const UTC_EDGES = ['2026-11-30 23:59:59.999+00', '2026-12-01 00:00:00+00', '2026-12-01 00:00:00.001+00'];

// Days around summer time's start (29 March 2026) and end (25 October 2026), a month's end and a year's.
const DAYS = ['2026-03-28', '2026-03-29', '2026-03-30', '2026-10-24', '2026-10-25', '2026-10-26', '2026-11-30', '2026-12-01', '2026-12-31', '2027-01-01'];
const OFFSETS = ['-1 microsecond', '0', '1 microsecond', '1 hour 59 minutes', '2 hours 30 minutes', '3 hours', '23 hours 59 minutes 59.999999 seconds', '24 hours', '25 hours'];
const PERIODS: Period[] = [
  { from: null, to: null },
  ...DAYS.map((d) => ({ from: d, to: null })),
  ...DAYS.map((d) => ({ from: null, to: d })),
  ...DAYS.flatMap((d, i) => DAYS.slice(i + 1, i + 3).map((e) => ({ from: d, to: e }))),
  { from: '2026-03-29', to: '2026-03-30' },
  { from: '2026-10-25', to: '2026-10-26' },
  { from: '2026-01-01', to: '2027-12-31' },
];

describe('the portal rollup against the definitions computed from scratch', () => {
  let db: TestDb;
  let merchants: { merchantId: string; productId: string }[];
  let charity: { merchantId: string; productId: string };
  let moments: string[];
  let sender: string;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDb();
    const { rows } = await sql<{ merchant_id: string; id: string; source: string }>`
      SELECT DISTINCT ON (p.merchant_id) p.merchant_id, p.id, p.source FROM product p ORDER BY p.merchant_id, p.source, p.id`.execute(db.db);
    merchants = rows.filter((r) => r.source === 'InStore').slice(0, 3).map((r) => ({ merchantId: r.merchant_id, productId: r.id }));
    const { rows: ch } = await sql<{ merchant_id: string; id: string }>`SELECT p.merchant_id, p.id FROM product p WHERE p.source = 'Charity' ORDER BY p.id LIMIT 1`.execute(db.db);
    charity = { merchantId: ch[0]!.merchant_id, productId: ch[0]!.id };
    expect(merchants).toHaveLength(3);
    const { rows: m } = await sql<{ t: string }>`
      SELECT ((d::date::timestamp AT TIME ZONE 'Europe/Stockholm') + o::interval)::text AS t
        FROM unnest(${DAYS}::text[]) AS d CROSS JOIN unnest(${OFFSETS}::text[]) AS o`.execute(db.db);
    moments = m.map((x) => x.t);
    const { rows: u } = await sql<{ id: string }>`INSERT INTO mobile_user (mobile_number) VALUES ('+46701234567') RETURNING id`.execute(db.db);
    sender = u[0]!.id;
  });
  afterAll(async () => {
    await db.drop();
  });

  /** One write of the mix, chosen at random; each in its own transaction, as the server's are. */
  async function write(r: ReturnType<typeof rng>): Promise<void> {
    const at = r.pick(moments);
    const kind = r.pick(['issue', 'issue', 'issue', 'redeem', 'redeem', 'redeem', 'redeem', 'undo', 'undo', 'cancel', 'donate', 'expiry', 'delete']);
    await db.db.transaction().execute(async (tx) => {
      if (kind === 'issue') {
        n += 1;
        const { rows } = await sql<{ id: string }>`
          INSERT INTO greetie (ref_id, sender_id, recipient_number, status, total, created_at, updated_at)
          VALUES (${`rollup${String(n).padStart(20, '0')}`}, ${sender}, '+46709876543', 'delivered', 0, ${at}::timestamptz, ${at}::timestamptz)
          RETURNING id`.execute(tx);
        const greetieId = rows[0]!.id;
        const gifts = Array.from({ length: r.int(1, 3) }, (_, i) => ({ i, m: r.pick([...merchants, charity]), amount: r.int(1, 500) * 100 + r.int(0, 99) }));
        for (const g of gifts) {
          await sql`INSERT INTO greetie_gift (greetie_id, position, product_id, amount, created_at) VALUES (${greetieId}, ${g.i}, ${g.m.productId}, ${g.amount}, ${at}::timestamptz)`.execute(tx);
        }
        // As issueVouchers does: every gift's voucher in one statement.
        await sql`
          INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, created_at, expires_at)
          SELECT gg.greetie_id, gg.id, p.merchant_id, p.id, p.source, gg.amount, ${at}::timestamptz,
                 ${r.next() < 0.5 ? null : r.pick([...moments, ...UTC_EDGES])}::timestamptz
            FROM greetie_gift gg JOIN product p ON p.id = gg.product_id
           WHERE gg.greetie_id = ${greetieId} ORDER BY gg.position
          ON CONFLICT (gift_id) DO NOTHING`.execute(tx);
      } else if (kind === 'redeem') {
        const { rows } = await sql<{ id: string; merchant_id: string; balance: number }>`
          SELECT id, merchant_id, balance FROM voucher WHERE donated_at IS NULL AND balance > 0 ORDER BY random() LIMIT 1 FOR UPDATE`.execute(tx);
        const v = rows[0];
        if (!v) return;
        // Partial most of the time, the whole balance sometimes.
        const take = r.next() < 0.3 ? v.balance : r.int(1, v.balance);
        await sql`UPDATE voucher SET balance = balance - ${take}, redeemed_at = CASE WHEN balance = ${take} THEN ${at}::timestamptz END WHERE id = ${v.id}`.execute(tx);
        await sql`INSERT INTO voucher_redemption (voucher_id, merchant_id, amount, via, redeemed_at) VALUES (${v.id}, ${v.merchant_id}, ${take}, ${r.pick(['code', 'qr'])}, ${at}::timestamptz)`.execute(tx);
      } else if (kind === 'undo') {
        const { rows } = await sql<{ id: string; voucher_id: string; amount: number }>`
          SELECT r.id, r.voucher_id, r.amount FROM voucher_redemption r WHERE r.undone_at IS NULL ORDER BY random() LIMIT 1`.execute(tx);
        const x = rows[0];
        if (!x) return;
        await sql`UPDATE voucher_redemption SET undone_at = ${at}::timestamptz WHERE id = ${x.id}`.execute(tx);
        await sql`UPDATE voucher SET balance = balance + ${x.amount}, redeemed_at = NULL WHERE id = ${x.voucher_id}`.execute(tx);
      } else if (kind === 'cancel') {
        await sql`
          UPDATE greetie SET status = 'cancelled', cancelled_at = ${at}::timestamptz
           WHERE id = (SELECT id FROM greetie WHERE status = 'delivered' ORDER BY random() LIMIT 1)`.execute(tx);
      } else if (kind === 'donate') {
        // As donateVoucher does: the old voucher gives its gift to a new Charity voucher.
        const { rows } = await sql<{ id: string; greetie_id: string; gift_id: string; amount: number; expires_at: string | null }>`
          SELECT id, greetie_id, gift_id, amount, expires_at::text FROM voucher
           WHERE donated_at IS NULL AND balance = amount AND source <> 'Charity' ORDER BY random() LIMIT 1 FOR UPDATE`.execute(tx);
        const v = rows[0];
        if (!v) return;
        await sql`UPDATE voucher SET donated_at = ${at}::timestamptz, gift_id = NULL WHERE id = ${v.id}`.execute(tx);
        const { rows: nv } = await sql<{ id: string }>`
          INSERT INTO voucher (greetie_id, gift_id, merchant_id, product_id, source, amount, expires_at, created_at)
          VALUES (${v.greetie_id}, ${v.gift_id}, ${charity.merchantId}, ${charity.productId}, 'Charity', ${v.amount}, ${v.expires_at}::timestamptz, ${at}::timestamptz)
          RETURNING id`.execute(tx);
        await sql`UPDATE voucher SET donated_to = ${nv[0]!.id} WHERE id = ${v.id}`.execute(tx);
      } else if (kind === 'expiry') {
        await sql`UPDATE voucher SET expires_at = ${r.pick([at, ...UTC_EDGES])}::timestamptz WHERE id = (SELECT id FROM voucher ORDER BY random() LIMIT 1)`.execute(tx);
      } else {
        // An account removed: its greeties go, their vouchers and redemptions with them.
        await sql`DELETE FROM greetie WHERE id = (SELECT id FROM greetie ORDER BY random() LIMIT 1)`.execute(tx);
      }
    });
  }

  async function compareAll(label: string): Promise<void> {
    // The server's clock is a Date (milliseconds), as `now` is here for both.
    const nows = [moments[0]!, moments[Math.floor(moments.length / 2)]!, moments[moments.length - 1]!, '2026-10-25 01:30:00+00', ...UTC_EDGES].map((x) =>
      new Date(x).toISOString(),
    );
    // With the open vouchers' deltas as they are, and again once folded (decision 124).
    for (const folded of [false, true]) {
      if (folded) await foldPortalOpen(db.db);
      for (const m of [...merchants, charity]) {
        for (const period of PERIODS) {
          const now = nows[PERIODS.indexOf(period) % nows.length]!;
          expect(await viaRollup(db.db, m.merchantId, period, now), `${label}${folded ? ', folded' : ''}: ${m.merchantId} ${JSON.stringify(period)} at ${now}`).toEqual(
            await fromScratch(db.db, m.merchantId, period, now),
          );
        }
      }
    }
  }

  it('after 300 random writes, checked every 100: every figure of every merchant in every period', async () => {
    const seed = Number(process.env.ROLLUP_SEED ?? 20261127);
    const r = rng(seed);
    for (let i = 1; i <= 300; i++) {
      await write(r);
      // A fold now and then between the writes, as the server's runs every 10 s.
      if (r.next() < 0.05) await foldPortalOpen(db.db);
      if (i % 100 === 0) await compareAll(`seed ${seed}, after ${i} writes`);
    }
    const { rows } = await sql<{ n: number; undone: number; partial: number; cancelled: number; donated: number }>`
      SELECT (SELECT count(*)::int FROM voucher_redemption) AS n,
             (SELECT count(*)::int FROM voucher_redemption WHERE undone_at IS NOT NULL) AS undone,
             (SELECT count(*)::int FROM voucher WHERE balance BETWEEN 1 AND amount - 1) AS partial,
             (SELECT count(*)::int FROM greetie WHERE status = 'cancelled') AS cancelled,
             (SELECT count(*)::int FROM voucher WHERE donated_at IS NOT NULL) AS donated`.execute(db.db);
    // The mix did what it says.
    for (const [k, v] of Object.entries(rows[0]!)) expect(v, k).toBeGreaterThan(0);
  }, 300_000);

  it("the migration's backfill: data written without the triggers gives the same figures once it has run", async () => {
    await openDown(db.db as unknown as Kysely<unknown>);
    await rollupsDown(db.db as unknown as Kysely<unknown>);
    const r = rng(7);
    for (let i = 0; i < 60; i++) await write(r);
    await rollupsUp(db.db as unknown as Kysely<unknown>);
    await openUp(db.db as unknown as Kysely<unknown>);
    await compareAll('after the backfill');
    // And the triggers run again from there.
    for (let i = 0; i < 60; i++) await write(r);
    await compareAll('after the backfill and 60 more writes');
  }, 300_000);
});
