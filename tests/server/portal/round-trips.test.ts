import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { addStaff } from '../../../server/portal/rules.ts';
import { call, greetieTestApp, person, type Person } from '../greetie/support.ts';
import { voucherCatalogue, type VoucherCatalogue } from '../voucher/support.ts';

/**
 * The portal's reads ask PostgreSQL as few times as they can (issue 26 "Speed"; decision 123): a
 * profile under load found each round trip, not the queries' own work, to be most of a request's
 * time. So every read is the sign-in check's user read (which also reads the person's merchants
 * and roles) and at most one statement of its own; nothing is written. Counted at the driver: every
 * statement any client of the app's pool sends while one request is answered. Those statements are
 * named prepared statements (decision 127: parsed and planned once per connection, not per call),
 * built and compiled by Kysely once per shape (decision 128: the same text at every call). The
 * user read stays a statement of its own (decision 128, "Not done").
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let owner: Person;
let staff: Person;
let stranger: Person;

const sent: string[] = [];
/** The name each statement was sent with ('' for an unnamed one), in the order of `sent`. */
const names: string[] = [];
const FOLD = /^(begin|commit|rollback)$|greetie\/portal-open-fold|DELETE FROM portal_open|EXISTS \(SELECT 1 FROM portal_open_delta\)/i;
const original = pg.Client.prototype.query;

beforeAll(async () => {
  t = await greetieTestApp();
  shop = await voucherCatalogue(t.db.db);
  owner = await person(t.app);
  staff = await person(t.app);
  stranger = await person(t.app);
  await addStaff(t.db.db, shop.merchantId, owner.mobileNumber, 'owner');
  await addStaff(t.db.db, shop.merchantId, staff.mobileNumber, 'staff');
});
afterEach(() => {
  pg.Client.prototype.query = original;
});
afterAll(async () => {
  await t.close();
});

/** The statements sent while `path` is answered to `who`, and the answer's status. */
async function statementsOf(who: Person, method: 'GET' | 'POST', path: string): Promise<{ status: number; statements: string[] }> {
  sent.length = 0;
  names.length = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text: string; name?: string };
    const text = (typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').trim();
    // The background fold (every 10 s, server/portal/fold.ts: its read, and the fold when there are deltas) is not the request's.
    if (!FOLD.test(text)) {
      sent.push(text);
      names.push(typeof q === 'string' ? '' : (q.name ?? ''));
    }
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    const res = await call(t.app, who, method, path, method === 'POST' ? {} : undefined);
    return { status: res.statusCode, statements: [...sent] };
  } finally {
    pg.Client.prototype.query = original;
  }
}

describe("the portal's reads: the user read and at most one statement, nothing written", () => {
  const base = () => `/api/portal/merchants/${shop.merchantId}`;

  it('the summary (with and without a period) and a page of redemptions: two statements each, for the owner and for staff', async () => {
    for (const who of [owner, staff]) {
      for (const path of ['/summary', '/summary?from=2026-01-01&to=2027-01-01', '/redemptions', '/redemptions?limit=5']) {
        const { status, statements } = await statementsOf(who, 'GET', base() + path);
        expect(status, path).toBe(200);
        expect(statements, path).toHaveLength(2);
        expect(statements[0], path).toMatch(/^select .* from "mobile_user"/i);
        for (const s of statements) expect(s, path).not.toMatch(/^(insert|update|delete)\b|\b(insert into|update \S+ set|delete from)\b/i);
      }
    }
  });

  it('the user read, the summary and the first page are named prepared statements, the same name for the same text', async () => {
    const seen = new Map<string, string>();
    for (const who of [owner, staff, owner]) {
      for (const path of ['/summary', '/summary?from=2026-01-01&to=2027-01-01', '/redemptions']) {
        const { statements } = await statementsOf(who, 'GET', base() + path);
        expect(names, path).toHaveLength(2);
        statements.forEach((text, i) => {
          expect(names[i], `${path}: ${text}`).toMatch(/^g[\w-]{22}$/);
          expect(seen.get(text) ?? names[i], text).toBe(names[i]);
          seen.set(text, names[i]!);
        });
      }
    }
    // The user read, two texts of the summary (with and without a period), the first page.
    expect(new Set(seen.values()).size).toBe(4);
    // A page of a limit the caller chose stays unnamed (its limit is a parameter).
    await statementsOf(owner, 'GET', `${base()}/redemptions?limit=5`);
    expect(names[1]).toBe('');
  });

  it('the list of my merchants answers from the user read alone', async () => {
    const { status, statements } = await statementsOf(owner, 'GET', '/api/portal/merchants');
    expect(status).toBe(200);
    expect(statements).toHaveLength(1);
  });

  it('the role check costs no statement of its own: a stranger gets 404 and staff get 403 on an owner call after the user read alone', async () => {
    const stranger404 = await statementsOf(stranger, 'GET', `${base()}/summary`);
    expect(stranger404.status).toBe(404);
    expect(stranger404.statements).toHaveLength(1);
    const staff403 = await statementsOf(staff, 'POST', `${base()}/code`);
    expect(staff403.status).toBe(403);
    expect(staff403.statements).toHaveLength(1);
  });
});
