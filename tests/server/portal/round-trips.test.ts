import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, type Person, type greetieTestApp } from '../greetie/support.ts';
import type { VoucherCatalogue } from '../voucher/support.ts';
import { portalFixture, statementRecorder } from '../helpers.ts';

/**
 * The portal's reads ask PostgreSQL as few times as they can (issue 26 "Speed"; decision 123): a
 * profile under load found each round trip, not the queries' own work, to be most of a request's
 * time. So the summary and a page of redemptions are ONE statement each, the sign-in check (does
 * the token's user still exist) and the role folded in (decision 144); the other portal calls are
 * the sign-in check's user read (which also reads the person's merchants and roles) and at most
 * one statement of their own; nothing is written. Counted at the driver: every statement any
 * client of the app's pool sends while one request is answered. Those statements are named
 * prepared statements (decision 127: parsed and planned once per connection, not per call), built
 * and compiled by Kysely once per shape (decision 128: the same text at every call).
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let shop: VoucherCatalogue;
let owner: Person;
let staff: Person;
let stranger: Person;

const FOLD = /^(begin|commit|rollback)$|greetie\/portal-open-fold|DELETE FROM portal_open|EXISTS \(SELECT 1 FROM portal_open_delta\)/i;
let recorder: ReturnType<typeof statementRecorder>;
/** The name each statement was sent with ('' for an unnamed one), in the order of the last `statementsOf`'s statements. */
let names: string[] = [];

beforeAll(async () => {
  ({ t, shop, owner, staff, stranger } = await portalFixture());
  recorder = statementRecorder(t.db.pool);
});
afterEach(() => {
  recorder.stop();
});
afterAll(async () => {
  await t.close();
});

/** The statements the app's pool sends while `path` is answered to `who`, and the answer's status. */
async function statementsOf(who: Person, method: 'GET' | 'POST', path: string): Promise<{ status: number; statements: string[] }> {
  recorder.start();
  try {
    const res = await call(t.app, who, method, path, method === 'POST' ? {} : undefined);
    // The background fold (every 10 s, server/portal/fold.ts: its read, and the fold when there are deltas) is not the request's.
    const own = recorder.sent.filter((s) => !FOLD.test(s.text));
    names = own.map((s) => s.name);
    return { status: res.statusCode, statements: own.map((s) => s.text) };
  } finally {
    recorder.stop();
  }
}

describe("the portal's reads: one statement for the summary and a page, nothing written", () => {
  const base = () => `/api/portal/merchants/${shop.merchantId}`;

  it('the summary (with and without a period) and a page of redemptions: one statement each, the sign-in check in it, for the owner and for staff', async () => {
    for (const who of [owner, staff]) {
      for (const path of ['/summary', '/summary?from=2026-01-01&to=2027-01-01', '/redemptions', '/redemptions?limit=5', '/redemptions?from=2026-01-01']) {
        const { status, statements } = await statementsOf(who, 'GET', base() + path);
        expect(status, path).toBe(200);
        expect(statements, path).toHaveLength(1);
        expect(statements[0], path).toMatch(/FROM mobile_user u WHERE u\.id = \$\d+::uuid/);
        expect(statements[0], path).toMatch(/FROM merchant_staff s WHERE s\.user_id = \$\d+::uuid AND s\.merchant_id = \$\d+/);
        for (const s of statements) expect(s, path).not.toMatch(/^(insert|update|delete)\b|\b(insert into|update \S+ set|delete from)\b/i);
      }
    }
  });

  it('the summary and the first page are named prepared statements, the same name for the same text', async () => {
    const seen = new Map<string, string>();
    for (const who of [owner, staff, owner]) {
      for (const path of ['/summary', '/summary?from=2026-01-01&to=2027-01-01', '/redemptions']) {
        const { statements } = await statementsOf(who, 'GET', base() + path);
        expect(names, path).toHaveLength(1);
        statements.forEach((text, i) => {
          expect(names[i], `${path}: ${text}`).toMatch(/^g[\w-]{22}$/);
          expect(seen.get(text) ?? names[i], text).toBe(names[i]);
          seen.set(text, names[i]!);
        });
      }
    }
    // Two texts of the summary (with and without a period), the first page.
    expect(new Set(seen.values()).size).toBe(3);
    // A page of a limit the caller chose stays unnamed (its limit is a parameter).
    await statementsOf(owner, 'GET', `${base()}/redemptions?limit=5`);
    expect(names[0]).toBe('');
  });

  it("a stranger's 404 is that one statement too; a bad period is refused after the user read alone", async () => {
    const stranger404 = await statementsOf(stranger, 'GET', `${base()}/summary`);
    expect(stranger404.status).toBe(404);
    expect(stranger404.statements).toHaveLength(1);
    const page404 = await statementsOf(stranger, 'GET', `${base()}/redemptions`);
    expect(page404.status).toBe(404);
    expect(page404.statements).toHaveLength(1);
    const bad = await statementsOf(owner, 'GET', `${base()}/summary?from=2026-11-20&to=2026-11-01`);
    expect(bad.status).toBe(400);
    expect(bad.statements).toHaveLength(1);
    expect(bad.statements[0]).toMatch(/^select .* from "mobile_user"/i);
  });

  it('the list of my merchants answers from the user read alone', async () => {
    const { status, statements } = await statementsOf(owner, 'GET', '/api/portal/merchants');
    expect(status).toBe(200);
    expect(statements).toHaveLength(1);
  });

  it('the role check costs no statement of its own: staff get 403 on an owner call after the user read alone', async () => {
    const staff403 = await statementsOf(staff, 'POST', `${base()}/code`);
    expect(staff403.status).toBe(403);
    expect(staff403.statements).toHaveLength(1);
  });
});
