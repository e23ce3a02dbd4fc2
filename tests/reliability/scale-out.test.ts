import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import { migrations } from '../../server/db/migrations/index.ts';
import { demoMerchants } from '../../server/merchant/seed.ts';
import { freePort } from '../../server/net.ts';
import { freshIp, freshMobileNumber, LONG, say, signIn, type Session } from './common.ts';
import { haproxyAvailable, HAPROXY, startHaproxy, type Balancer } from './haproxy.ts';
import { startServer, stopServer, type ServerProcess } from './server-process.ts';
import { httpTarget, type Answer, type Req } from './target.ts';

/**
 * Scale-out (docs/decisions/065-scale-out-test.md): three real server processes
 * (`node --import tsx server/main.ts`) started at once on one empty database, behind Debian's
 * HAProxy (round robin, /api/health checks), the way README's "Running on several servers"
 * describes. Money-path journeys run through the balancer: sign in by SMS code, name oneself,
 * create a greetie with a gift and a photo, pay (sandbox Swish), wait for the delivery SMS, the
 * recipient signs in and redeems with the merchant's code (three redeems at once: one wins).
 * Mid-run one process is killed with SIGKILL and started again. Then, in SQL: every paid greetie
 * delivered exactly once (one SMS), its vouchers issued once, nothing redeemed twice, every
 * acknowledged write there, and nothing left pending or claimed.
 *
 * Quick (in `npm test`): 10 journeys. Long (`npm run test:reliability`): 120 (SCALE_JOURNEYS).
 */
const JOURNEYS = Number(process.env.SCALE_JOURNEYS) || (LONG ? 120 : 10);
const CONCURRENCY = LONG ? 12 : 5;
const POOL = 4;
const TOKEN_SIGNING_KEY = 'scale-out-test-signing-key-0123456789abcdef';
/** How often the delivery sweep looks for claimed rows past their lease and overdue ones. */
const RECONCILE_MS = 1000;
/** The payment reconciler's fixed period (server/payment/reconcile.ts RECONCILE_EVERY_MS). */
const PAYMENT_RECONCILE_MS = 30_000;

/**
 * The delivery lease: DELIVERY_LEASE_MS when this build has that setting (its parser refuses a
 * non-number), the smallest of a few short values it accepts; otherwise the fixed 120 s of
 * server/delivery/rules.ts. With a fixed lease the quick run kills the process that runs no
 * delivery worker (it holds no claim), so it never waits two minutes for a claim to expire.
 */
function deliveryLease(): { configurable: boolean; ms: number } {
  if (parseConfig({ DELIVERY_LEASE_MS: 'not-a-number' }).ok) return { configurable: false, ms: 120_000 };
  for (const ms of [5000, 10_000, 15_000, 30_000, 60_000]) {
    if (parseConfig({ DELIVERY_LEASE_MS: String(ms) }).ok) return { configurable: true, ms };
  }
  return { configurable: false, ms: 120_000 };
}
const LEASE = deliveryLease();
/** After this long, nothing may still be pending or claimed (lease + sweeps + a loaded machine's slack). */
const SETTLE_MS = LEASE.ms + PAYMENT_RECONCILE_MS + 30_000;

const TRANSIENT = new Set([502, 503, 504]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A 1×1 PNG as a multipart upload (the smallest photo the media calls take). */
const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
function photoUpload(): { headers: Record<string, string>; payload: Buffer } {
  const boundary = '----greetiescaleout';
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      ONE_PIXEL_PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

/** What one journey was told succeeded (each is checked in SQL at the end). */
interface Journey {
  n: number;
  sender?: Session;
  named?: boolean;
  greetie?: { id: string; refId: string };
  mediaSeenBy?: number;
  paymentId?: string;
  paid?: boolean;
  delivered?: boolean;
  voucherId?: string;
  redeemWins?: number;
  redeemed?: boolean;
  error?: string;
}

describe(
  `three server processes behind HAProxy on one database, one killed with SIGKILL (${JOURNEYS} journeys)`,
  { timeout: LONG ? 1_800_000 : 180_000 },
  () => {
    const adminUrl = inject('adminUrl');
    const dbName = `greetie_scale_${randomBytes(5).toString('hex')}`;
    const dbUrl = (() => {
      const u = new URL(adminUrl);
      u.pathname = `/${dbName}`;
      return u.toString();
    })();
    const root = mkdtempSync(path.join(tmpdir(), 'greetie-scale-'));
    const sharedMedia = path.join(root, 'shared-media');
    const names = ['s1', 's2', 's3'] as const;
    const dataDirs = names.map((n) => path.join(root, n));
    let ports: number[] = [];
    const servers: (ServerProcess | undefined)[] = [];
    const dead: ServerProcess[] = [];
    let lb: Balancer | undefined;
    let sql: pg.Client | undefined;
    let publicUrl = '';

    /** The same settings on every process, as README asks; only the delivery worker differs. */
    const envFor = (i: number): Record<string, string> => ({
      DATABASE_URL: dbUrl,
      TOKEN_SIGNING_KEY,
      PUBLIC_URL: publicUrl,
      // The test client plays the edge in front of HAProxy (a crowd's addresses in X-Forwarded-For),
      // HAProxy appends the client's: two hops are trusted.
      TRUST_PROXY: '2',
      DATABASE_POOL_SIZE: String(POOL),
      DELIVERY_RECONCILE_MS: String(RECONCILE_MS),
      DELIVERY_POLL_MS: '500',
      ...(LEASE.configurable ? { DELIVERY_LEASE_MS: String(LEASE.ms) } : {}),
      // s3 serves the API only: no delivery worker, so it never holds a delivery's claim.
      DELIVERY_WORKER: i === 2 ? 'off' : 'on',
      LOG_LEVEL: 'warn',
    });
    // A cold start is a few seconds on idle cores; three at once on a shared, loaded machine can take minutes.
    const start = (i: number) => startServer({ dataDir: dataDirs[i]!, port: ports[i]!, env: envFor(i), timeoutMs: 240_000 });

    beforeAll(async () => {
      if (!haproxyAvailable()) {
        throw new Error(`HAProxy is not installed (${HAPROXY}): apt-get install -y haproxy (.ci/run does it when it is missing)`);
      }
      // One media folder for all: each process's DATA_DIR/media is the same shared folder (an NFS
      // mount in real life; S3 is the other way).
      mkdirSync(sharedMedia, { recursive: true });
      for (const d of dataDirs) {
        mkdirSync(d, { recursive: true });
        symlinkSync(sharedMedia, path.join(d, 'media'));
      }
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${dbName}`); // empty: the three processes migrate it
      } finally {
        await admin.end();
      }
      ports = [await freePort(), await freePort(), await freePort()];
      const lbPort = await freePort();
      publicUrl = `http://127.0.0.1:${lbPort}`;
      // All three at once on the empty database. Each one that started is kept for afterAll to
      // stop, even when another failed.
      const started = await Promise.allSettled(names.map((_, i) => start(i)));
      for (const r of started) servers.push(r.status === 'fulfilled' ? r.value : undefined);
      const failed = started.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      lb = await startHaproxy(
        root,
        names.map((name, i) => ({ name, port: ports[i]! })),
        lbPort,
      );
      sql = new pg.Client({ connectionString: dbUrl });
      await sql.connect();
    }, 360_000); // three cold starts at once on a shared 2-core machine

    afterAll(async () => {
      await sql?.end().catch(() => {});
      await lb?.stop();
      await Promise.all(servers.map((s) => (s ? stopServer(s).catch(() => {}) : undefined)));
      for (const s of dead) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
      rmSync(root, { recursive: true, force: true });
    });

    it('starting all three at once on an empty database migrates and seeds it once', async () => {
      const applied = await sql!.query<{ name: string; n: number }>('SELECT name, count(*)::int AS n FROM kysely_migration GROUP BY name');
      expect(applied.rows.map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
      expect(applied.rows.every((r) => r.n === 1)).toBe(true);
      const merchants = await sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant');
      expect(merchants.rows[0]!.n).toBe(demoMerchants.length);
      const pools = await sql!.query<{ n: number; d: number }>('SELECT count(*)::int AS n, count(DISTINCT product_id)::int AS d FROM code_pool');
      expect(pools.rows[0]!.n).toBe(pools.rows[0]!.d);
      for (const s of servers) expect((await fetch(`${s!.baseUrl}/api/health`)).status).toBe(200);
    });

    it('money-path journeys through the balancer survive a kill -9 and a restart: delivered once, issued once, redeemed once, nothing lost or stuck', async () => {
      const send = httpTarget(lb!.baseUrl);
      let transient = 0;
      /**
       * One request, sent again while the balancer answers 502/503/504 or the connection drops
       * (what a client does when a server dies under it). Every step the journeys take is safe to
       * repeat: a repeated answer is what the first one would have been, or a 409 the step handles.
       */
      const call = async (req: Req, budgetMs = 60_000): Promise<Answer> => {
        const until = Date.now() + budgetMs;
        for (;;) {
          try {
            const a = await send(req);
            if (!TRANSIENT.has(a.status) || Date.now() > until) return a;
          } catch (err) {
            if (Date.now() > until) throw err;
          }
          transient += 1;
          await sleep(200);
        }
      };
      const signInRetrying = async (mobileNumber = freshMobileNumber(), ip = freshIp()): Promise<Session> => {
        let last: unknown;
        // A login whose answer was lost used its code: the whole sign-in starts again.
        for (let i = 0; i < 4; i++) {
          try {
            return await signIn(call, mobileNumber, ip);
          } catch (err) {
            last = err;
            await sleep(300);
          }
        }
        throw last;
      };
      const post = (url: string, body: unknown, who: Session, ip: string, extra: Record<string, string> = {}): Req => ({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}`, ...extra },
        payload: JSON.stringify(body),
        remoteAddress: ip,
      });
      const get = (url: string, who: Session | undefined, ip: string): Req => ({
        method: 'GET',
        url,
        headers: who ? { authorization: `Bearer ${who.token}` } : {},
        remoteAddress: ip,
      });
      const must = (a: Answer, what: string): unknown => {
        if (a.status !== 200) throw new Error(`${what} answered ${a.status}: ${a.body.slice(0, 300)}`);
        return JSON.parse(a.body) as unknown;
      };

      // A fixed-price in-store gift, and the demo merchants' codes (the sandbox knows them).
      const catalogueIp = freshIp();
      const merchants = must(await call(get('/api/merchant', undefined, catalogueIp)), 'GET /api/merchant') as { id: string }[];
      let productId: string | undefined;
      for (const m of merchants) {
        const list = must(await call(get(`/api/merchant/${m.id}/products`, undefined, catalogueIp)), 'products') as { id: string; source: string; price?: number | null }[];
        productId = list.find((p) => p.source === 'InStore' && typeof p.price === 'number')?.id;
        if (productId) break;
      }
      expect(productId, 'a fixed-price in-store product in the demo catalogue').toBeDefined();
      const codes = must(await call(get('/api/sandbox/merchants', undefined, catalogueIp)), 'GET /api/sandbox/merchants') as { id: string; merchantCode: string }[];

      const deliveryWait = LEASE.ms + RECONCILE_MS + PAYMENT_RECONCILE_MS + 30_000;

      async function journey(j: Journey): Promise<void> {
        const ip = freshIp();
        const sender = await signInRetrying(freshMobileNumber(), ip);
        j.sender = sender;
        must(await call(post('/api/mobileuser', { name: 'Anna Svensson' }, sender, ip)), 'POST /api/mobileuser');
        j.named = true;
        const recipientNumber = freshMobileNumber();
        const created = must(
          await call(
            post('/api/greetie/createv2', { recipient: { mobileNumber: recipientNumber, name: 'Bo' }, message: 'Grattis!', gifts: [{ productId }] }, sender, ip, {
              'idempotency-key': randomUUID(),
            }),
          ),
          'POST /api/greetie/createv2',
        ) as { id: string; refId: string };
        j.greetie = { id: created.id, refId: created.refId };

        // A photo uploaded through one process is read through every one (the shared folder).
        const up = photoUpload();
        const uploaded = await call({ method: 'POST', url: `/api/greetie/${created.id}/media`, headers: { ...up.headers, authorization: `Bearer ${sender.token}` }, payload: up.payload, remoteAddress: ip });
        if (uploaded.status === 200) {
          const url = (JSON.parse(uploaded.body) as { media: { url: string } }).media.url;
          let seen = 0;
          for (let k = 0; k < names.length; k++) {
            const r = await call(get(url, undefined, ip));
            if (r.status !== 200) throw new Error(`the photo ${url} answered ${r.status} through the balancer (read ${k + 1})`);
            seen++;
          }
          j.mediaSeenBy = seen;
        } else if (uploaded.status !== 409) {
          throw new Error(`POST /api/greetie/{id}/media answered ${uploaded.status}: ${uploaded.body.slice(0, 300)}`);
        }

        const payment = must(await call(post(`/api/greetie/${created.id}/startpayment`, { withdrawalConsent: true }, sender, ip)), 'POST /api/greetie/{id}/startpayment') as { id: string };
        j.paymentId = payment.id;
        const settled = await call(post(`/api/sandbox/payments/${payment.id}`, { outcome: 'paid' }, sender, ip));
        if (settled.status === 409) {
          // A repeat of a settle whose answer was lost: the payment must be (or become, when the
          // crash fell between the provider and our write, by reconciliation) paid.
          const until = Date.now() + PAYMENT_RECONCILE_MS + 30_000;
          for (;;) {
            const p = must(await call(get(`/api/greetie/${created.id}/payment`, sender, ip)), 'GET /api/greetie/{id}/payment') as { status: string };
            if (p.status === 'paid') break;
            if (Date.now() > until) throw new Error(`payment ${payment.id} still ${p.status} after a settle answered 409`);
            await sleep(500);
          }
        } else {
          must(settled, 'POST /api/sandbox/payments/{id}');
        }
        j.paid = true;

        // The recipient's SMS with the greetie's link.
        const link = `/greetie/view/${encodeURIComponent(created.refId)}`;
        const until = Date.now() + deliveryWait;
        for (;;) {
          const list = must(await call(get(`/api/sandbox/sms?to=${encodeURIComponent(recipientNumber)}`, undefined, ip)), 'GET /api/sandbox/sms') as { body: string }[];
          if (list.some((m) => m.body.includes(link))) break;
          if (Date.now() > until) throw new Error(`greetie ${created.id}: no SMS within ${deliveryWait} ms`);
          await sleep(300);
        }
        // The SMS is in the outbox a moment before the delivery is written (sent, the greetie
        // delivered: the next transaction), and until then the greetie is not the recipient's to
        // read; on a loaded machine that moment is long. The sender's view says when it is done.
        for (;;) {
          const g = must(await call(get(`/api/greetie/${created.id}`, sender, ip)), 'GET /api/greetie/{id}') as { status: string };
          if (g.status === 'delivered') break;
          if (Date.now() > until) throw new Error(`greetie ${created.id} still ${g.status} ${deliveryWait} ms after it was paid (its SMS went out)`);
          await sleep(300);
        }
        j.delivered = true;

        const rip = freshIp();
        const recipient = await signInRetrying(recipientNumber, rip);
        const vouchers = must(await call(get(`/api/greetie/${created.id}/vouchers`, recipient, rip)), 'GET /api/greetie/{id}/vouchers') as { id: string; merchant: { id: string } }[];
        if (vouchers.length !== 1) throw new Error(`greetie ${created.id} has ${vouchers.length} vouchers`);
        const voucher = vouchers[0]!;
        j.voucherId = voucher.id;
        const merchantCode = codes.find((c) => c.id === voucher.merchant.id)?.merchantCode;
        if (!merchantCode) throw new Error(`no demo code for merchant ${voucher.merchant.id}`);
        // Three redeems at once, spread by the balancer over the processes: one wins.
        const answers = await Promise.all([0, 1, 2].map(() => call(post('/api/voucher/redeem', { voucherId: voucher.id, merchantCode }, recipient, rip))));
        const odd = answers.filter((a) => a.status !== 200 && a.status !== 409);
        if (odd.length) throw new Error(`redeem answered ${odd.map((a) => `${a.status} ${a.body.slice(0, 200)}`).join('; ')}`);
        j.redeemWins = answers.filter((a) => a.status === 200).length;
        if (j.redeemWins > 1) throw new Error(`voucher ${voucher.id} redeemed ${j.redeemWins} times`);
        const v = must(await call(get(`/api/voucher/${voucher.id}`, recipient, rip)), 'GET /api/voucher/{id}') as { isRedeemed: boolean };
        if (!v.isRedeemed) throw new Error(`voucher ${voucher.id} not redeemed after ${answers.map((a) => a.status).join(', ')}`);
        j.redeemed = true;
      }

      // Connections per process: DATABASE_POOL_SIZE + 1 (the one LISTEN connection) at most.
      let maxConnections = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const r = await sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
          maxConnections = Math.max(maxConnections, r.rows[0]!.n);
          await sleep(200);
        }
      })();

      // The journeys, CONCURRENCY at a time; the kill comes once a third of them have paid.
      const journeys: Journey[] = Array.from({ length: JOURNEYS }, (_, n) => ({ n }));
      const victim = LONG || LEASE.configurable ? 0 : 2;
      const killAfterPaid = Math.max(2, Math.floor(JOURNEYS / 3));
      let killedAt = 0;
      let restarted: Promise<void> | undefined;
      let next = 0;
      const worker = async () => {
        while (next < journeys.length) {
          const j = journeys[next++]!;
          await journey(j).catch((err: unknown) => {
            j.error = err instanceof Error ? err.message : String(err);
          });
        }
      };
      const killer = (async () => {
        while (journeys.filter((j) => j.paid).length < killAfterPaid && journeys.some((j) => !j.error && !j.redeemed)) await sleep(50);
        sampling = false;
        const s = servers[victim]!;
        s.child.kill('SIGKILL');
        killedAt = Date.now();
        await s.exited;
        dead.push(s);
        servers[victim] = undefined;
        restarted = (async () => {
          await sleep(1000);
          servers[victim] = await start(victim);
        })();
        await restarted;
      })();
      const t0 = Date.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      await killer;
      await sampler;
      const journeysMs = Date.now() - t0;

      // Nothing pending or claimed once the lease and the sweeps have had their time.
      const stuckQuery = `
        SELECT (SELECT count(*)::int FROM delivery WHERE state IN ('pending', 'sending')) AS deliveries,
               (SELECT count(*)::int FROM payment WHERE status IN ('created', 'pending')) AS payments`;
      const settleUntil = killedAt + SETTLE_MS;
      let stuck = (await sql!.query<{ deliveries: number; payments: number }>(stuckQuery)).rows[0]!;
      while ((stuck.deliveries > 0 || stuck.payments > 0) && Date.now() < settleUntil) {
        await sleep(500);
        stuck = (await sql!.query<{ deliveries: number; payments: number }>(stuckQuery)).rows[0]!;
      }
      const settledAfterKill = Date.now() - killedAt;

      say(
        `scale-out: ${journeys.filter((j) => j.redeemed).length}/${JOURNEYS} journeys finished in ${journeysMs} ms through HAProxy; ` +
          `${names[victim]} killed with SIGKILL (delivery worker ${victim === 2 ? 'off' : 'on'}) and restarted; ${transient} requests answered 502/503/504 or dropped and sent again; ` +
          `nothing pending ${settledAfterKill} ms after the kill (lease ${LEASE.ms} ms${LEASE.configurable ? '' : ', fixed'}); ` +
          `at most ${maxConnections} database connections for 3 processes (DATABASE_POOL_SIZE=${POOL})`,
      );

      const failed = journeys.filter((j) => j.error).map((j) => `#${j.n}: ${j.error}`);
      expect(failed, `journeys that did not finish:\n${servers.map((s) => s?.output() ?? '').join('\n')}\n${lb!.output()}`).toEqual([]);
      expect(killedAt, 'a process was killed mid-run').toBeGreaterThan(0);
      expect(stuck, 'deliveries or payments left pending or claimed').toEqual({ deliveries: 0, payments: 0 });
      // Each process: its pool, plus its one LISTEN connection, shared by the catalogue cache and
      // the payment stream (README, DATABASE_POOL_SIZE; server/db/listener.ts).
      expect(maxConnections).toBeLessThanOrEqual(3 * (POOL + 1));
      // The restarted process is back in the balancer's rotation and answers.
      expect((await fetch(`${servers[victim]!.baseUrl}/api/health`)).status).toBe(200);

      // Every paid greetie: delivered, one SMS, one voucher per gift, one paid payment.
      const paid = await sql!.query<{ id: string; status: string; delivery: string | null; sms: number; vouchers: number; gifts: number; paid: number }>(`
        SELECT g.id, g.status, d.state AS delivery,
               (SELECT count(*)::int FROM sandbox_sms s WHERE strpos(s.body, '/greetie/view/' || g.ref_id) > 0) AS sms,
               (SELECT count(*)::int FROM voucher v WHERE v.greetie_id = g.id) AS vouchers,
               (SELECT count(*)::int FROM greetie_gift gg WHERE gg.greetie_id = g.id) AS gifts,
               (SELECT count(*)::int FROM payment p WHERE p.greetie_id = g.id AND p.status = 'paid') AS paid
          FROM greetie g LEFT JOIN delivery d ON d.greetie_id = g.id
         WHERE EXISTS (SELECT 1 FROM payment p WHERE p.greetie_id = g.id AND p.status = 'paid')`);
      expect(paid.rows.length).toBe(JOURNEYS);
      const wrong = paid.rows.filter((r) => r.status !== 'delivered' || r.delivery !== 'sent' || r.sms !== 1 || r.vouchers !== r.gifts || r.paid !== 1);
      expect(wrong, 'paid greeties not delivered exactly once, or with vouchers issued other than once').toEqual([]);
      const twiceIssued = await sql!.query('SELECT gift_id FROM voucher GROUP BY gift_id HAVING count(*) > 1');
      expect(twiceIssued.rows).toEqual([]);
      const twiceRedeemed = await sql!.query("SELECT voucher_id FROM redeem_attempt WHERE outcome = 'redeemed' GROUP BY voucher_id HAVING count(*) > 1");
      expect(twiceRedeemed.rows).toEqual([]);

      // Every acknowledged write is there.
      const lost: string[] = [];
      for (const j of journeys) {
        if (j.named) {
          const u = await sql!.query<{ name: string | null }>('SELECT name FROM mobile_user WHERE id = $1', [j.sender!.userId]);
          if (u.rows[0]?.name !== 'Anna Svensson') lost.push(`#${j.n}: the sender's name`);
        }
        if (j.greetie) {
          const g = await sql!.query<{ n: number }>('SELECT count(*)::int AS n FROM greetie WHERE id = $1 AND ref_id = $2', [j.greetie.id, j.greetie.refId]);
          if (g.rows[0]!.n !== 1) lost.push(`#${j.n}: greetie ${j.greetie.id}`);
        }
        if (j.mediaSeenBy !== undefined) {
          const m = await sql!.query<{ n: number }>("SELECT count(*)::int AS n FROM media_file WHERE greetie_id = $1 AND role = 'media'", [j.greetie!.id]);
          if (m.rows[0]!.n !== 1) lost.push(`#${j.n}: the photo's row`);
        }
        if (j.paymentId) {
          const p = await sql!.query<{ status: string }>('SELECT status FROM payment WHERE id = $1', [j.paymentId]);
          if (!p.rows[0] || (j.paid && p.rows[0].status !== 'paid')) lost.push(`#${j.n}: payment ${j.paymentId} (${p.rows[0]?.status ?? 'missing'})`);
        }
        if (j.redeemed) {
          const v = await sql!.query<{ is_redeemed: boolean; wins: number }>(
            "SELECT v.is_redeemed, (SELECT count(*)::int FROM redeem_attempt a WHERE a.voucher_id = v.id AND a.outcome = 'redeemed') AS wins FROM voucher v WHERE v.id = $1",
            [j.voucherId],
          );
          if (!v.rows[0]?.is_redeemed || v.rows[0].wins !== 1) lost.push(`#${j.n}: voucher ${j.voucherId} redeemed ${v.rows[0]?.wins ?? 0} times`);
        }
      }
      expect(lost, 'acknowledged writes missing').toEqual([]);
    });
  },
);
