import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { transaction } from '../../../server/db/index.ts';
import { scheduleDelivery } from '../../../server/delivery/rules.ts';
import { QUEUE } from '../../../server/db/migrations/008_delivery.ts';
import { newRefId } from '../../../server/greetie/rules.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';
import { freshNumber } from '../auth/support.ts';
import { startServer, stopServer, type ServerProcess } from '../../reliability/server-process.ts';

/**
 * Two real server processes (`node --import tsx server/main.ts`, each with its delivery worker)
 * on one database, and many greeties scheduled at once, each with its job added twice (as an
 * at-least-once queue may run it): every recipient gets exactly one SMS.
 */
const TOKEN_SIGNING_KEY = 'delivery-two-process-signing-key-0123456789abcdef';
const GREETIES = 100;

describe('two server processes deliver many greeties', { timeout: 180_000 }, () => {
  let db: TestDb;
  let app: FastifyInstance;
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await createTestDb();
    // The scheduling side, in this process (no worker): what POST /send and a paid payment do.
    app = await buildApp(testConfig(), { db: db.db });
    await app.ready();
    const started = await Promise.all(
      [0, 1].map(async () => {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'greetie-delivery-'));
        dirs.push(dataDir);
        return startServer({
          dataDir,
          env: { DATABASE_URL: db.url, TOKEN_SIGNING_KEY, DELIVERY_POLL_MS: '500', PUBLIC_URL: 'https://greetie.example' },
        });
      }),
    );
    servers.push(...started);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => stopServer(s)));
    await app?.close();
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('each SMS exactly once', async () => {
    const { rows: users } = await sql<{ id: string }>`
      INSERT INTO mobile_user (mobile_number, name) VALUES (${freshNumber()}, 'Alice') RETURNING id`.execute(db.db);
    const senderId = users[0]!.id;
    const greeties: { id: string; refId: string; to: string }[] = [];
    await transaction(db.db, async (tx) => {
      for (let i = 0; i < GREETIES; i++) {
        const refId = newRefId();
        const to = freshNumber();
        const { rows } = await sql<{ id: string }>`
          INSERT INTO greetie (ref_id, sender_id, recipient_number, recipient_name, status)
          VALUES (${refId}, ${senderId}, ${to}, 'Vän', 'scheduled') RETURNING id`.execute(tx);
        const id = rows[0]!.id;
        await scheduleDelivery(tx, app, id);
        await app.services.delivery.enqueue(tx, id, new Date()); // the same job again
        greeties.push({ id, refId, to });
      }
    });
    const t0 = Date.now();

    let delivered = 0;
    while (Date.now() - t0 < 60_000) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM greetie WHERE status = 'delivered'`.execute(db.db);
      delivered = rows[0]!.n;
      if (delivered === GREETIES) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(delivered, servers.map((s) => s.output()).join('\n')).toBe(GREETIES);
    const { rows: span } = await sql<{ ms: number }>`
      SELECT (extract(epoch FROM max(delivered_at)) * 1000 - ${t0})::int AS ms FROM greetie`.execute(db.db);
    process.stdout.write(`${GREETIES} greeties (${2 * GREETIES} jobs) delivered by two processes in ${span[0]!.ms} ms\n`);
    // Both processes' jobs ran out (the duplicate ones found nothing to do); no SMS is sent twice.
    await new Promise((r) => setTimeout(r, 1500));
    const { rows: sms } = await sql<{ to_number: string; body: string }>`SELECT to_number, body FROM sandbox_sms`.execute(db.db);
    expect(sms).toHaveLength(GREETIES);
    const byNumber = new Map(sms.map((s) => [s.to_number, s.body]));
    for (const g of greeties) {
      expect(byNumber.get(g.to)).toBe(`Alice har skickat en greetie till dig. Öppna: https://greetie.example/greetie/view/${g.refId}`);
    }
    const { rows: states } = await sql<{ state: string; attempts: number; n: number }>`
      SELECT state, attempts, count(*)::int AS n FROM delivery GROUP BY state, attempts`.execute(db.db);
    expect(states).toEqual([{ state: 'sent', attempts: 1, n: GREETIES }]);
    const { rows: done } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = ${QUEUE} AND state = 'completed'`.execute(db.db);
    expect(done[0]!.n).toBe(2 * GREETIES);
  });
});
