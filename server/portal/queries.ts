import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import { PREPARED, compiledOnce } from '../db/prepared.ts';
import { PORTAL_PAGE_DEFAULT } from '../../contract/portal.ts';

/**
 * The merchant portal's SQL (migrations 022, 023, 027): who works for a merchant, and what was
 * issued and redeemed there. Each list reads an index made for it, the summary rollups
 * (tests/server/portal/indexes.test.ts, rollups.test.ts).
 */

type Executor = Db | Tx;

export type Role = 'owner' | 'staff';

export interface StaffRow {
  merchant_id: string;
  mobile_number: string;
  role: Role;
  user_id: string | null;
  created_at: Date;
}

/** Links a number to a merchant with a role (a number linked already gets the new role); the row as it is now. */
export function upsertStaff(db: Executor, merchantId: string, mobileNumber: string, role: Role): Promise<StaffRow> {
  return db
    .insertInto('merchant_staff')
    .values({ merchant_id: merchantId, mobile_number: mobileNumber, role })
    .onConflict((oc) => oc.columns(['merchant_id', 'mobile_number']).doUpdateSet({ role }))
    .returning(['merchant_id', 'mobile_number', 'role', 'user_id', 'created_at'])
    .executeTakeFirstOrThrow();
}

/** False when the number was not linked to the merchant. */
export async function deleteStaff(db: Executor, merchantId: string, mobileNumber: string): Promise<boolean> {
  const rows = await db.deleteFrom('merchant_staff').where('merchant_id', '=', merchantId).where('mobile_number', '=', mobileNumber).returning('mobile_number').execute();
  return rows.length > 0;
}

/** The merchant's people, owners first. */
export function staffOf(db: Executor, merchantId: string): Promise<StaffRow[]> {
  return db
    .selectFrom('merchant_staff')
    .select(['merchant_id', 'mobile_number', 'role', 'user_id', 'created_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy(sql`role = 'owner'`, 'desc')
    .orderBy('mobile_number')
    .execute();
}

export function merchantExists(db: Executor, merchantId: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('merchant').select(['id', 'name']).where('id', '=', merchantId).executeTakeFirst();
}

/** Europe/Stockholm days (`2026-11-26`): the period is [from's start, to's start) there; null: open. */
export interface Period {
  from: string | null;
  to: string | null;
}

/** A Stockholm day's start as a moment (PostgreSQL's time zone data decides summer time). */
const dayStart = (day: string) => sql<Date>`(${day}::date::timestamp AT TIME ZONE 'Europe/Stockholm')`;

export interface SummaryRow {
  issued_count: number;
  issued_amount: number;
  redeemed_count: number;
  redeemed_amount: number;
  outstanding_count: number;
  outstanding_amount: number;
  expired_count: number;
  expired_amount: number;
}

/** The period's days in `portal_day` (migration 023): whole Stockholm days, [from, to). */
const periodDays = (period: Period) =>
  sql`${period.from === null ? sql`` : sql`AND d.day >= ${period.from}::date`} ${period.to === null ? sql`` : sql`AND d.day < ${period.to}::date`}`;

/**
 * The whole summary in one statement (one round trip; decision 123), prepared (decision 127).
 * - Issued and redeemed within the period: the sums of the merchant's rows in `portal_day` (one
 *   per Stockholm day, kept by triggers: vouchers not donated away whose greetie is not cancelled,
 *   by the day they were issued; redemptions not undone, by the day they were redeemed).
 * - Outstanding and expired now (vouchers not donated, with a balance, greetie not cancelled;
 *   decision 124): `portal_open`'s rows and the deltas not folded yet, per UTC day of expiry: a day
 *   before today's has expired, a later day (or none) has not; the vouchers expiring on the day
 *   `now` falls in are read one by one from `voucher_merchant_open` and split by `expires_at`
 *   against now (an anti-join on the small partial index `greetie_cancelled`).
 */
export function summaryQuery(db: Executor, merchantId: string, period: Period, now: Date) {
  return summaryStatement(summaryValues(merchantId, period, now));
}

/** The summary's values: the ones the statement takes, each its own (compiledOnce). */
interface SummaryValues extends Record<string, unknown> {
  merchantId: string;
  from: string | null;
  to: string | null;
  /** Moments as ISO texts, not Dates (decision 155): node-postgres' own Date-to-text conversion cost node a few kB per summary. */
  now: string;
  /** The UTC day `now` falls in, its start and the next day's start. */
  day: string;
  today: string;
  tomorrow: string;
}

function summaryValues(merchantId: string, period: Period, now: Date): SummaryValues {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const tomorrow = new Date(today.getTime() + 86_400_000);
  const start = today.toISOString();
  return { merchantId, from: period.from, to: period.to, now: now.toISOString(), day: start.slice(0, 10), today: start, tomorrow: tomorrow.toISOString() };
}

function summaryStatement({ merchantId, from, to, now, day, today, tomorrow }: SummaryValues, marked = true) {
  return sql<SummaryRow>`SELECT ${marked ? PREPARED : sql``} i.issued_count, i.issued_amount, i.redeemed_count, i.redeemed_amount,
           (f.outstanding_count + t.outstanding_count)::int AS outstanding_count,
           (f.outstanding_amount + t.outstanding_amount)::int AS outstanding_amount,
           (f.expired_count + t.expired_count)::int AS expired_count,
           (f.expired_amount + t.expired_amount)::int AS expired_amount
      FROM (SELECT coalesce(sum(d.issued_count), 0)::int AS issued_count, coalesce(sum(d.issued_amount), 0)::int AS issued_amount,
                   coalesce(sum(d.redeemed_count), 0)::int AS redeemed_count, coalesce(sum(d.redeemed_amount), 0)::int AS redeemed_amount
              FROM portal_day d
             WHERE d.merchant_id = ${merchantId} ${periodDays({ from, to })}) i
     CROSS JOIN (
       SELECT coalesce(sum(o.n) FILTER (WHERE o.day > ${day}::date), 0) AS outstanding_count,
              coalesce(sum(o.amount) FILTER (WHERE o.day > ${day}::date), 0) AS outstanding_amount,
              coalesce(sum(o.n) FILTER (WHERE o.day < ${day}::date), 0) AS expired_count,
              coalesce(sum(o.amount) FILTER (WHERE o.day < ${day}::date), 0) AS expired_amount
         FROM (SELECT p.expires_day, p.open_count, p.open_amount FROM portal_open p WHERE p.merchant_id = ${merchantId}
               UNION ALL
               SELECT p.expires_day, p.open_count, p.open_amount FROM portal_open_delta p WHERE p.merchant_id = ${merchantId}
              ) AS o (day, n, amount)
     ) f
     CROSS JOIN (
       SELECT count(*) FILTER (WHERE v.expires_at > ${now}::timestamptz) AS outstanding_count,
              coalesce(sum(v.balance) FILTER (WHERE v.expires_at > ${now}::timestamptz), 0) AS outstanding_amount,
              count(*) FILTER (WHERE v.expires_at <= ${now}::timestamptz) AS expired_count,
              coalesce(sum(v.balance) FILTER (WHERE v.expires_at <= ${now}::timestamptz), 0) AS expired_amount
         FROM voucher v
        WHERE v.merchant_id = ${merchantId} AND v.donated_at IS NULL AND v.balance > 0
          AND v.expires_at >= ${today}::timestamptz AND v.expires_at < ${tomorrow}::timestamptz
          AND NOT EXISTS (SELECT 1 FROM greetie g WHERE g.id = v.greetie_id AND g.status = 'cancelled')
     ) t`;
}

/**
 * The sign-in check and the role of a portal read, as two columns of the read's own statement (one
 * round trip; this decision 144): `signed_in` is null when the user of the token no longer exists
 * (401 INVALID_TOKEN, as `app.authenticate`), `role` null when they do not work for the merchant
 * (404), both read from the same snapshot as the figures. The same sources as the user read's
 * `merchants` (`merchant_staff` by `user_id`, the partial index `merchant_staff_user`).
 */
const gate = (userId: string, merchantId: string) =>
  sql`(SELECT true FROM mobile_user u WHERE u.id = ${userId}::uuid) AS signed_in,
      (SELECT s.role FROM merchant_staff s WHERE s.user_id = ${userId}::uuid AND s.merchant_id = ${merchantId}) AS role`;

/** What a portal read's gate columns say. */
export interface GateRow {
  signed_in: boolean | null;
  role: Role | null;
}

/** The summary with the sign-in check and the role folded in: always one row. */
export function portalSummaryQuery(userId: string, merchantId: string, period: Period, now: Date) {
  return portalSummaryStatement({ userId, ...summaryValues(merchantId, period, now) });
}

function portalSummaryStatement({ userId, ...values }: SummaryValues & { userId: string }) {
  return sql<GateRow & SummaryRow>`SELECT ${PREPARED} ${gate(userId, values.merchantId)}, s.* FROM (${summaryStatement(values, false)}) s`;
}

const portalSummaryRead = compiledOnce((db, values: SummaryValues & { userId: string }) => portalSummaryStatement(values).compile(db));

/** The summary and the caller's gate in one round trip (decision 144). */
export async function portalSummaryOf(db: Executor, userId: string, merchantId: string, period: Period, now: Date): Promise<GateRow & SummaryRow> {
  const rows = await portalSummaryRead(db, { userId, ...summaryValues(merchantId, period, now) });
  return rows[0]!;
}

/** The summary, built and compiled once per shape (with or without each end of the period; decision 128). */
const summaryRead = compiledOnce((db, values: SummaryValues) => summaryStatement(values).compile(db));

export async function summaryOf(db: Executor, merchantId: string, period: Period, now: Date): Promise<SummaryRow> {
  const rows = await summaryRead(db, summaryValues(merchantId, period, now));
  return rows[0]!;
}

export interface RedemptionListRow {
  id: string;
  voucher_id: string;
  product_name: string;
  amount: number;
  redeemed_at: Date;
  via: string;
  undone: boolean;
  /** redeemed_at to the microsecond, for the keyset cursor. */
  at: string;
  /** redeemed_at as a Stockholm wall clock reads it, `2026-11-26 14:03:09` (the settlement file). */
  local_time: string;
}

const exactRedeemedAt = sql<string>`to_char(r.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * A page of the merchant's redemptions, newest first (keyset on redeemed_at, id after `after`),
 * through `voucher_redemption_merchant_page`; each with its product's name as it was when redeemed
 * (migration 030).
 */
export function redemptionPageQuery(db: Executor, merchantId: string, period: Period, after: { at: string; id: string } | undefined, limit: number) {
  return answerColumns(redemptionRows(db, merchantId, period, after, limit)).select([
    exactRedeemedAt.as('at'),
    sql<string>`to_char(r.redeemed_at AT TIME ZONE 'Europe/Stockholm', 'YYYY-MM-DD HH24:MI:SS')`.as('local_time'),
  ]);
}

/**
 * The rows of a page (the keyset, the order and the limit), before their columns: one index alone,
 * `voucher_redemption_merchant_page`, which covers the answer's columns (migration 030; decision 150).
 */
function redemptionRows(db: Executor, merchantId: string, period: Period, after: { at: string; id: string } | undefined, limit: number) {
  // The page the portal asks for (the default limit, read inside the prepared `portalPageQuery`)
  // has its limit in the text (a `LIMIT $n` would keep PostgreSQL planning it at every call;
  // decision 127); other limits (a chosen `limit`, the settlement file's pages) are parameters.
  const literal = limit === PORTAL_PAGE_DEFAULT + 1;
  let q = db.selectFrom('voucher_redemption as r').where('r.merchant_id', '=', merchantId);
  if (period.from) q = q.where('r.redeemed_at', '>=', dayStart(period.from));
  if (period.to) q = q.where('r.redeemed_at', '<', dayStart(period.to));
  if (after) q = q.where(sql<boolean>`(r.redeemed_at, r.id) < (${after.at}::timestamptz, ${after.id}::uuid)`);
  return q
    .orderBy('r.redeemed_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(literal ? sql.lit(limit) : limit);
}

/** The columns a redemption's answer takes (the portal's page and the settlement file): one list for both. */
function answerColumns(rows: ReturnType<typeof redemptionRows>) {
  return rows.select(['r.id', 'r.voucher_id', 'r.product_name', 'r.amount', 'r.redeemed_at', 'r.via', sql<boolean>`r.undone_at IS NOT NULL`.as('undone')]);
}

export function redemptionPage(db: Executor, merchantId: string, period: Period, after: { at: string; id: string } | undefined, limit: number): Promise<RedemptionListRow[]> {
  return redemptionPageQuery(db, merchantId, period, after, limit).execute();
}

/** What the folded first page answers: the gate, the page as the answer's JSON, the next cursor. */
export interface PortalPageRow extends GateRow {
  /** The answer: the page's items as a JSON array of the contract's PortalRedemption objects ('[]' for none). */
  items: string;
  /** The last item's keyset when more follow, else null. */
  next_at: string | null;
  next_id: string | null;
}

/**
 * A page of the portal's redemptions with the sign-in check and the role folded in (one round trip;
 * decision 144), the page built by PostgreSQL as the answer's JSON: each item a PortalRedemption
 * in the contract's field order, written as fast-json-stringify writes it (the texts by `to_json`,
 * which escapes as JSON does; uuids, integers and booleans as they are; `redeemedAt` as
 * `toISOString()` writes it: milliseconds, truncated as node-postgres' Date truncates the
 * microseconds), in order, comma-separated, in the array's brackets; the route sends it as it is
 * (as bytes: decision 155). Concatenated
 * rather than `row_to_json` per row: ≈ 10 % less of PostgreSQL's CPU for the page. The
 * rows are `redemptionPageQuery`'s (the same index, the same keyset); `limit` + 1 are read to know
 * whether more follow. Always one row.
 */
export function portalPageQuery(db: Executor, userId: string, merchantId: string, period: Period, after: { at: string; id: string } | undefined, limit: number) {
  const prepared = limit === PORTAL_PAGE_DEFAULT;
  const n = prepared ? sql.lit(limit) : sql`${limit}::int`;
  // Only the columns the answer takes; the cursor's exact time only for the page's last row.
  const rows = answerColumns(redemptionRows(db, merchantId, period, after, limit + 1));
  // The marker must lead the text (server/db/prepared.ts): the page is a subquery with its own WITH.
  return sql<PortalPageRow>`SELECT ${prepared ? PREPARED : sql``} ${gate(userId, merchantId)}, x.items, x.next_at, x.next_id
      FROM (WITH p AS (SELECT r.*, row_number() OVER (ORDER BY r.redeemed_at DESC, r.id DESC) AS n FROM (${rows}) r)
            SELECT (SELECT '[' || coalesce(string_agg(
                             '{"id":"' || p.id || '","voucherId":"' || p.voucher_id || '","productName":' || to_json(p.product_name)::text ||
                             ',"amount":' || p.amount ||
                             ',"redeemedAt":"' || to_char(p.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') ||
                             '","via":' || to_json(p.via)::text || ',"undone":' || p.undone || '}',
                             ',' ORDER BY p.n), '') || ']'
                      FROM p WHERE p.n <= ${n}) AS items,
                   (SELECT to_char(p.redeemed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM p
                     WHERE p.n = ${n} AND EXISTS (SELECT 1 FROM p WHERE p.n > ${n})) AS next_at,
                   (SELECT p.id FROM p WHERE p.n = ${n} AND EXISTS (SELECT 1 FROM p WHERE p.n > ${n})) AS next_id) x`;
}

/** The portal's default page (gate folded in), built and compiled once per shape (decisions 128, 144). */
const portalDefaultPageRead = compiledOnce(
  (db, v: { userId: string; merchantId: string; from: string | null; to: string | null; afterAt: string | undefined; afterId: string | undefined }) =>
    portalPageQuery(db, v.userId, v.merchantId, v, v.afterAt === undefined || v.afterId === undefined ? undefined : { at: v.afterAt, id: v.afterId }, PORTAL_PAGE_DEFAULT).compile(db),
);

/** A page of the portal's redemptions and the caller's gate in one round trip (decision 144). */
export async function portalPage(db: Executor, userId: string, merchantId: string, period: Period, after: { at: string; id: string } | undefined, limit: number): Promise<PortalPageRow> {
  const rows =
    limit === PORTAL_PAGE_DEFAULT
      ? await portalDefaultPageRead(db, { userId, merchantId, from: period.from, to: period.to, afterAt: after?.at, afterId: after?.id })
      : (await portalPageQuery(db, userId, merchantId, period, after, limit).execute(db)).rows;
  return rows[0]!;
}
