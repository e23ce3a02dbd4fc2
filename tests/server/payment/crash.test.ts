import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { postgresPid, startServer, stopServer, type ServerProcess } from '../../reliability/server-process.ts';
import { isAlive } from '../../../server/process.ts';
import { removeDataDir } from '../../../server/db/datadir.ts';
import { openDatabase } from '../../../server/admin/connection.ts';
import { demoMerchants, demoProductId } from '../../../server/merchant/seed.ts';

/**
 * kill -9 between the provider's PAID and our write (decision 080 "Recovery"): the real
 * server (`node server/main.ts`, embedded PostgreSQL, sandbox payments) runs with
 * GREETIE_TEST_CRASH_AT=payment.paid, so the process SIGKILLs itself the moment the provider has
 * confirmed PAID, before the paid transaction. The sandbox has the request PAID; our payment is
 * still pending. Started again on the same DATA_DIR (without the hook), the start-up
 * reconciliation finds the open payment, asks the provider and applies PAID once: paid,
 * scheduled, one voucher per gift, the Code gift with one code.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-paycrash-'));
const servers: ServerProcess[] = [];
const BEHIND_PROXY = { TRUST_PROXY: 'on' };

afterAll(async () => {
  for (const s of servers) await stopServer(s).catch(() => {});
  const pid = postgresPid(dataDir);
  if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  removeDataDir(dataDir);
});

async function json(base: string, method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'x-forwarded-for': '10.99.0.1',
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function signIn(base: string, mobileNumber: string): Promise<string> {
  const req = await json(base, 'POST', '/api/auth/verificationcode', { mobileNumber });
  expect(req.status, JSON.stringify(req.body)).toBe(200);
  const sms = (await (await fetch(`${base}/api/sandbox/sms?to=${encodeURIComponent(mobileNumber)}`)).json()) as { body: string }[];
  const code = /(\d{6})/.exec(sms[0]?.body ?? '')?.[1];
  expect(code).toBeDefined();
  const login = await json(base, 'POST', '/api/auth/login', { token: req.body.token, code, deviceId: '00000000-0000-0000-0000-000000000000' });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const token = login.body.token as string;
  // A sender needs a name: startpayment is 409 SENDER_NAME_REQUIRED without.
  expect((await json(base, 'POST', '/api/mobileuser', { name: 'Anna' }, token)).status).toBe(200);
  return token;
}

describe('kill -9 between the provider\'s PAID and our write', () => {
  it('the payment is recovered at start-up and its vouchers issued once', { timeout: 240_000 }, async () => {
    const first = await startServer({ dataDir, env: { ...BEHIND_PROXY, GREETIE_TEST_CRASH_AT: 'payment.paid' } });
    servers.push(first);
    const token = await signIn(first.baseUrl, '+46701230001');
    const cafe = demoMerchants.find((m) => m.products.some((p) => p.source === 'Code'))!;
    const inStore = demoProductId(cafe, cafe.products.findIndex((p) => p.source === 'InStore'));
    const codeIndex = cafe.products.findIndex((p) => p.source === 'Code');
    const code = cafe.products[codeIndex]!;
    const gifts = [{ productId: inStore }, { productId: demoProductId(cafe, codeIndex), ...(code.price === undefined ? { amount: code.minAmount } : {}) }];
    const g = await json(first.baseUrl, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: '+46701230002', name: 'Vän' }, gifts }, token);
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    const greetieId = g.body.id as string;
    const p = await json(first.baseUrl, 'POST', `/api/greetie/${greetieId}/startpayment`, { withdrawalConsent: true }, token);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const paymentId = p.body.id as string;

    // The payer approves in the "app": the sandbox request is PAID, its callback asks the provider,
    // the provider says PAID, and the server dies before writing anything.
    const settled = await json(first.baseUrl, 'POST', `/api/sandbox/payments/${paymentId}`, { outcome: 'paid' }).catch((err: unknown) => err);
    expect(settled, 'the settle request died with the server').toBeInstanceOf(Error);
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');

    const restartedAt = new Date();
    const second = await startServer({ dataDir, env: BEHIND_PROXY });
    servers.push(second);

    // Straight from the database (GET /payment would recover it too; this proves start-up did).
    const db = await openDatabase({ DATA_DIR: dataDir });
    try {
      let row: { status: string; updated_at: Date } | undefined;
      for (let i = 0; i < 100; i++) {
        row = (await sql<{ status: string; updated_at: Date }>`SELECT status, updated_at FROM payment WHERE id = ${paymentId}`.execute(db.db)).rows[0];
        if (row?.status === 'paid') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(row?.status, second.output()).toBe('paid');
      expect(row!.updated_at.getTime()).toBeGreaterThanOrEqual(restartedAt.getTime() - 1000);
      const { rows } = await sql<{ status: string; vouchers: number; coded: number; codes: number }>`
        SELECT (SELECT status FROM greetie WHERE id = ${greetieId}) AS status,
               (SELECT count(*)::int FROM voucher WHERE greetie_id = ${greetieId}) AS vouchers,
               (SELECT count(*)::int FROM voucher WHERE greetie_id = ${greetieId} AND code IS NOT NULL) AS coded,
               (SELECT count(*)::int FROM product_code WHERE payment_id = ${paymentId}) AS codes`.execute(db.db);
      expect(rows[0]!.status).not.toBe('awaitingPayment');
      expect(rows[0]!).toMatchObject({ vouchers: 2, coded: 1, codes: 1 });

      // The callback Swish keeps retrying, and status checks, change nothing more.
      const { rows: ins } = await sql<{ instruction_id: string }>`SELECT instruction_id FROM payment WHERE id = ${paymentId}`.execute(db.db);
      for (let i = 0; i < 5; i++) {
        const cb = await json(second.baseUrl, 'POST', '/api/greetie/paymentCallBack', { id: ins[0]!.instruction_id, status: 'PAID' });
        expect(cb.status).toBe(200);
      }
      const after = await json(second.baseUrl, 'GET', `/api/greetie/${greetieId}/payment`, undefined, token);
      expect(after.body.status).toBe('paid');
      const { rows: again } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM voucher WHERE greetie_id = ${greetieId}`.execute(db.db);
      expect(again[0]!.n).toBe(2);
    } finally {
      await db.close();
    }
    await stopServer(second);
  });
});
