import { sql } from 'kysely';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Payment } from '../../../contract/payment.ts';
import type { AccountExport } from '../../../contract/account.ts';
import type { Db } from '../../../server/db/index.ts';
import { signIn } from '../auth/support.ts';
import { call, freshNumber, greetieTestApp, mediaRow, type Person } from '../greetie/support.ts';
import { MERCHANT_CODE, deliver, paidGreetie, voucherCatalogue, type VoucherCatalogue } from '../voucher/support.ts';

type T = Awaited<ReturnType<typeof greetieTestApp>>;

interface Me extends Person {
  id: string;
  refreshToken: string;
  token: string;
}

/**
 * One's account as a whole, on real PostgreSQL: the three greetie lists, the export
 * (GDPR access) and the removal of the account (GDPR erasure).
 */
describe('/api/mobileuser: greetie lists, export and removal', () => {
  let t: T;
  let cat: VoucherCatalogue;
  beforeAll(async () => {
    t = await greetieTestApp();
    cat = await voucherCatalogue(t.db.db);
  });
  afterAll(async () => {
    await t.close();
  });

  async function me(mobileNumber = freshNumber()): Promise<Me> {
    const s = await signIn(t.app, mobileNumber);
    return { mobileNumber, token: s.token, refreshToken: s.refreshToken, id: decodeJwt(s.token).sub!, auth: { authorization: `Bearer ${s.token}` } };
  }
  const ids = (res: { json(): unknown }) => (res.json() as Greetie[]).map((g) => g.id);
  /** The clock is fixed: each greetie a second later, so the newest-first order is the order made. */
  const tick = () => t.clock.advance(1000);
  async function paid(sender: Person, to: string, products: string[]) {
    tick();
    return paidGreetie(t.app, sender, to, products);
  }
  const key = () => `${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`.padEnd(24, 'x');
  async function draft(who: Person, recipient?: string): Promise<string> {
    tick();
    const res = await call(t.app, who, 'POST', '/api/greetie', recipient ? { recipient: { mobileNumber: recipient, name: 'Vän' }, message: 'Hej' } : {});
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Greetie).id;
  }

  describe('GET /mobileuser/sentgreeties, /receivedgreeties, /greeties', () => {
    it('sent: the caller\'s own (drafts too); received: delivered to their number; greeties: both, a greetie to oneself once', async () => {
      const a = await me();
      const b = await me();
      const aDraft = await draft(a, b.mobileNumber);
      const aToB = await paid(a, b.mobileNumber, [cat.charity]);
      await deliver(t.app, aToB.id);
      const bToA = await paid(b, a.mobileNumber, [cat.inStore]);
      const bToAScheduled = await paid(b, a.mobileNumber, [cat.charity]); // paid, not delivered: a surprise
      await deliver(t.app, bToA.id);
      const aToA = await paid(a, a.mobileNumber, [cat.charity]);
      await deliver(t.app, aToA.id);

      const sent = await call(t.app, a, 'GET', '/api/mobileuser/sentgreeties');
      expect(sent.statusCode).toBe(200);
      expect(ids(sent)).toEqual([aToA.id, aToB.id, aDraft]);
      const received = await call(t.app, a, 'GET', '/api/mobileuser/receivedgreeties');
      expect(ids(received)).toEqual([aToA.id, bToA.id]);
      expect(ids(received)).not.toContain(bToAScheduled.id);
      // The recipient sees the codes-bearing view of their vouchers; their own greetie to b shows none.
      const got = (received.json() as Greetie[]).find((g) => g.id === bToA.id)!;
      expect(got.sender).toEqual({ id: decodeJwt(b.token).sub, name: 'Avsändaren' }); // paidGreetie names a nameless sender
      const all = await call(t.app, a, 'GET', '/api/mobileuser/greeties');
      expect(ids(all)).toEqual([aToA.id, bToA.id, aToB.id, aDraft]);
      // The same list as GET /greetie.
      expect(ids(await call(t.app, a, 'GET', '/api/greetie'))).toEqual(ids(all));
    });

    it('pages by keyset with a Link header to the same path, and refuses a bad cursor or limit (400)', async () => {
      const a = await me();
      const made = [];
      for (let i = 0; i < 5; i++) made.unshift(await draft(a));
      const seen: string[] = [];
      let url: string | undefined = '/api/mobileuser/sentgreeties?limit=2';
      while (url) {
        const res = await call(t.app, a, 'GET', url);
        expect(res.statusCode).toBe(200);
        seen.push(...ids(res));
        const link = res.headers.link as string | undefined;
        url = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined;
        if (url) expect(url).toMatch(/^\/api\/mobileuser\/sentgreeties\?limit=2&cursor=/);
      }
      expect(seen).toEqual(made);
      expect((await call(t.app, a, 'GET', '/api/mobileuser/receivedgreeties?cursor=nonsense')).json().code).toBe('INVALID_CURSOR');
      expect((await call(t.app, a, 'GET', '/api/mobileuser/greeties?limit=101')).statusCode).toBe(400);
      expect((await call(t.app, a, 'GET', '/api/mobileuser/greeties?limit=0')).statusCode).toBe(400);
    });

    it.each(['/api/mobileuser/sentgreeties', '/api/mobileuser/receivedgreeties', '/api/mobileuser/greeties', '/api/mobileuser/export'])(
      'GET %s without a token is 401',
      async (url) => {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(401);
        expect(res.json().code).toBe('UNAUTHORIZED');
      },
    );
  });

  describe('GET /mobileuser/export', () => {
    it('downloads everything held about the caller as a dated JSON attachment, with no secret in it', async () => {
      const a = await me();
      const b = await me();
      await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: a.auth, payload: { name: 'Anna Export', allowMarketing: true } });
      const aDraft = await draft(a, b.mobileNumber);
      const aToB = await paid(a, b.mobileNumber, [cat.inStore]);
      await deliver(t.app, aToB.id);
      const bToA = await paid(b, a.mobileNumber, [cat.inStore]);
      await deliver(t.app, bToA.id);

      const res = await call(t.app, a, 'GET', '/api/mobileuser/export');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="greetie-mina-uppgifter-${t.clock.now().toISOString().slice(0, 10)}.json"`);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json() as AccountExport;
      expect(body.profile).toMatchObject({ id: a.id, mobileNumber: a.mobileNumber, name: 'Anna Export', allowMarketing: true });
      expect(body.consents).toEqual({ marketing: true });
      expect(body.greeties.sent.map((g) => g.id)).toEqual([aToB.id, aDraft]);
      expect(body.greeties.received.map((g) => g.id)).toEqual([bToA.id]);
      expect(body.vouchers.map((v) => v.greetieId)).toEqual([bToA.id]);
      expect(body.payments).toEqual([expect.objectContaining({ greetieId: aToB.id, status: 'paid', amount: 14900 })]);
      expect(body.sessions).toEqual([expect.objectContaining({ deviceId: '00000000-0000-0000-0000-000000000000', revokedAt: null })]);
      expect(Array.isArray(body.notifications)).toBe(true);
      expect(Array.isArray(body.pushRegistrations)).toBe(true);

      // No secret: no token or hash of one, no merchant code, no provider token.
      const text = res.body;
      const hashes = await t.db.db.selectFrom('auth_refresh_token').select('token_hash').where('user_id', '=', a.id).execute();
      expect(hashes.length).toBeGreaterThan(0);
      for (const h of hashes) expect(text).not.toContain(h.token_hash);
      expect(text).not.toContain(a.refreshToken);
      expect(text).not.toContain(a.token);
      expect(text).not.toContain(MERCHANT_CODE);
      expect(text).not.toMatch(/token_?hash|code_?hash|swish_?token|instruction/i);
      // Nothing about b beyond what a's own greeties say (b's number as a's recipient, b's id as a sender).
      const bOwn = await call(t.app, b, 'GET', '/api/mobileuser/export');
      expect(bOwn.json().profile.id).not.toBe(a.id);
      expect(bOwn.body).not.toContain(a.refreshToken);
    });
  });

  describe('DELETE /mobileuser/remove', () => {
    /** Every text, uuid and json column of every table (ours and the job queue's) holding `needle`. */
    async function whereFound(db: Db, needles: string[]): Promise<string[]> {
      const { rows: columns } = await sql<{ table_schema: string; table_name: string; column_name: string }>`
        SELECT c.table_schema, c.table_name, c.column_name
        FROM information_schema.columns c
        JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name AND tb.table_type = 'BASE TABLE'
        WHERE c.table_schema IN ('public', 'pgboss')
          AND c.data_type IN ('text', 'uuid', 'character varying', 'jsonb', 'json', 'ARRAY')
        ORDER BY 1, 2, 3`.execute(db);
      expect(columns.length).toBeGreaterThan(20);
      const found: string[] = [];
      for (const c of columns) {
        for (const needle of needles) {
          const { rows } = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM ${sql.table(`${c.table_schema}.${c.table_name}`)}
            WHERE strpos(${sql.ref(c.column_name)}::text, ${needle}) > 0`.execute(db);
          if (rows[0]!.n > 0) found.push(`${c.table_schema}.${c.table_name}.${c.column_name} has ${needle}`);
        }
      }
      return found;
    }

    it('removes the account and every trace of its id and number; delivered greeties stay, from nobody; the old session is refused', async () => {
      const a = await me();
      const b = await me();
      await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: a.auth, payload: { name: 'Anna Borttagen', allowMarketing: true } });
      const second = await signIn(t.app, a.mobileNumber); // a second device
      // A draft with media, a greetie awaiting payment (its Swish request open), one delivered to b
      // (paid by a's own number, e-commerce), one b sent to a (delivered, with a voucher), one a sent themselves.
      const aDraft = await draft(a, b.mobileNumber);
      const photo = `${key()}.jpg`;
      const thumb = `${key()}.jpg`;
      await mediaRow(t.db.db, aDraft, 'media', photo);
      await mediaRow(t.db.db, aDraft, 'thumbnail', thumb);
      const awaiting = (await call(t.app, a, 'POST', '/api/greetie/createv2', { recipient: { mobileNumber: b.mobileNumber }, gifts: [{ productId: cat.charity }] })).json() as Greetie;
      const started = await call(t.app, a, 'POST', `/api/greetie/${awaiting.id}/startpayment`, { withdrawalConsent: true, payerAlias: a.mobileNumber });
      expect(started.statusCode, started.body).toBe(200);
      const openPayment = started.json() as Payment;
      const aToB = await paid(a, b.mobileNumber, [cat.inStore]);
      await deliver(t.app, aToB.id);
      const bToA = await paid(b, a.mobileNumber, [cat.inStore]);
      await deliver(t.app, bToA.id);
      const aToA = await paid(a, a.mobileNumber, [cat.charity]);
      await deliver(t.app, aToA.id);
      const refOfAToB = (await t.db.db.selectFrom('greetie').select('ref_id').where('id', '=', aToB.id).executeTakeFirstOrThrow()).ref_id;
      // A wrong redeem attempt by a (recorded with a's id).
      const [voucher] = (await call(t.app, a, 'GET', '/api/mobileuser/vouchers')).json() as { id: string }[];
      expect((await call(t.app, a, 'POST', '/api/voucher/redeem', { voucherId: voucher!.id, merchantCode: 'FEL12345' })).statusCode).toBe(400);
      // The payment's state, with the rest of b's data: none of it may change.
      const bBefore = await call(t.app, b, 'GET', '/api/mobileuser/export');

      expect(await whereFound(t.db.db, [a.id, a.mobileNumber])).not.toEqual([]);
      const receivedNotes = await sql<{ params: unknown }>`SELECT params FROM notification WHERE greetie_id = ${aToB.id} AND params ? 'senderName'`.execute(t.db.db);
      expect(JSON.stringify(receivedNotes.rows)).toContain('Anna Borttagen');
      t.cleaned.length = 0;
      const res = await call(t.app, a, 'DELETE', '/api/mobileuser/remove');
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');

      // b was told of a's greetie by name; that notification no longer names a.
      expect(receivedNotes.rows.length).toBeGreaterThan(0);
      const notesAfter = await sql<{ params: unknown }>`SELECT params FROM notification WHERE greetie_id = ${aToB.id}`.execute(t.db.db);
      expect(JSON.stringify(notesAfter.rows)).not.toContain('Anna Borttagen');
      // Nothing of a's id or number is left anywhere (nor the number in Swish's form, without "+").
      expect(await whereFound(t.db.db, [a.id, a.mobileNumber, a.mobileNumber.slice(1)])).toEqual([]);
      // The open payment was cancelled with the provider before the greetie went.
      const sandboxRequest = await t.db.db.selectFrom('sandbox_payment_request').select('status').where('payer_alias', 'is', null).execute();
      expect(sandboxRequest.map((r) => r.status)).toContain('CANCELLED');
      expect(await t.db.db.selectFrom('payment').select('id').where('id', '=', openPayment.id).execute()).toEqual([]);
      // Drafts and unpaid greeties are gone with their stored media; the rest stay.
      const left = (await t.db.db.selectFrom('greetie').select('id').where('id', 'in', [aDraft, awaiting.id, aToB.id, bToA.id, aToA.id]).execute()).map((r) => r.id);
      expect(left.sort()).toEqual([aToB.id, bToA.id, aToA.id].sort());
      expect(t.cleaned).toEqual([{ greetieId: aDraft, storageKeys: [photo, thumb] }]);

      // Both sessions end now: the access tokens answer 401 on every protected call, the refresh tokens too.
      for (const [method, url] of [
        ['GET', '/api/auth/my'],
        ['GET', '/api/mobileuser/greeties'],
        ['GET', '/api/mobileuser/export'],
        ['GET', '/api/mobileuser/vouchers'],
        ['GET', `/api/mobileuser/${a.id}`],
        ['GET', '/api/greetie'],
        ['POST', '/api/greetie'],
        ['DELETE', '/api/mobileuser/remove'],
      ] as const) {
        for (const token of [a.token, second.token]) {
          const r = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(method === 'POST' ? { payload: {} } : {}) });
          expect(r.statusCode, `${method} ${url}`).toBe(401);
          expect(r.json().code).toBe('INVALID_TOKEN');
        }
      }
      const refreshed = await t.app.inject({
        method: 'POST',
        url: `/api/auth/refresh?token=${encodeURIComponent(second.token)}&refreshToken=${encodeURIComponent(second.refreshToken)}`,
      });
      expect(refreshed.statusCode).toBe(401);

      // b still has a's greetie, now from nobody; its public link works; b's own data is unchanged.
      const byRef = await t.app.inject({ method: 'GET', url: `/api/greetie/byRef?refId=${refOfAToB}` });
      expect(byRef.statusCode).toBe(200);
      expect(byRef.json().sender).toEqual({ id: null, name: null });
      const bGot = (await call(t.app, b, 'GET', '/api/mobileuser/receivedgreeties')).json() as Greetie[];
      expect(bGot.map((g) => g.id)).toContain(aToB.id);
      expect(bGot.find((g) => g.id === aToB.id)!.sender).toEqual({ id: null, name: null });
      expect((await call(t.app, b, 'GET', '/api/mobileuser/vouchers')).json()).toHaveLength(1);
      // The greetie b sent a keeps b's side (sender, what was given) but no recipient number.
      const bSent = (await call(t.app, b, 'GET', `/api/greetie/${bToA.id}`)).json() as Greetie;
      expect(bSent.sender.id).toBe(decodeJwt(b.token).sub);
      expect(bSent.recipient).toBeNull();
      const bAfter = await call(t.app, b, 'GET', '/api/mobileuser/export');
      expect(bAfter.json().profile).toEqual(bBefore.json().profile);

      // The number can sign up again as a new person, with nothing of the old account.
      const again = await me(a.mobileNumber);
      expect(again.id).not.toBe(a.id);
      expect((await call(t.app, again, 'GET', '/api/mobileuser/greeties')).json()).toEqual([]);
      expect((await call(t.app, again, 'GET', '/api/mobileuser/vouchers')).json()).toEqual([]);
    });

    it('a greetie still on its way to the number (somebody else\'s, paid) keeps it and is delivered', async () => {
      const a = await me();
      const c = await me();
      const cToA = await paid(c, a.mobileNumber, [cat.charity]);
      expect((await call(t.app, a, 'DELETE', '/api/mobileuser/remove')).statusCode).toBe(204);
      await deliver(t.app, cToA.id);
      const row = await t.db.db.selectFrom('greetie').select(['status', 'recipient_number']).where('id', '=', cToA.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'delivered', recipient_number: a.mobileNumber });
    });

    it('409 ACCOUNT_PAYMENT_PENDING when a payment opens while it runs, and nothing changes', async () => {
      const a = await me();
      await call(t.app, a, 'POST', '/api/mobileuser', { name: 'Anna' }); // a sender needs a name to start a payment
      const gifts = { recipient: { mobileNumber: freshNumber() }, gifts: [{ productId: cat.charity }] };
      tick();
      const awaiting = (await call(t.app, a, 'POST', '/api/greetie/createv2', gifts)).json() as Greetie;
      expect((await call(t.app, a, 'POST', `/api/greetie/${awaiting.id}/startpayment`, { withdrawalConsent: true })).statusCode).toBe(200);
      tick();
      const other = (await call(t.app, a, 'POST', '/api/greetie/createv2', gifts)).json() as Greetie;
      const payments = t.app.services.payments;
      const cancel = payments.cancel.bind(payments);
      // While the provider cancels the first, the other greetie's payment is started (another tab),
      // as startpayment leaves it: awaiting payment, its request pending.
      payments.cancel = async (instructionId: string) => {
        const state = await cancel(instructionId);
        await sql`UPDATE greetie SET status = 'awaitingPayment' WHERE id = ${other.id}`.execute(t.db.db);
        await sql`
          INSERT INTO payment (greetie_id, provider, status, amount, instruction_id)
          VALUES (${other.id}, 'sandbox', 'pending', 5000, ${'F'.repeat(32)})`.execute(t.db.db);
        return state;
      };
      try {
        const res = await call(t.app, a, 'DELETE', '/api/mobileuser/remove');
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json()).toMatchObject({ code: 'ACCOUNT_PAYMENT_PENDING', message: expect.stringContaining('betalning') });
      } finally {
        payments.cancel = cancel;
      }
      expect((await call(t.app, a, 'GET', '/api/auth/my')).statusCode).toBe(200);
      expect(ids(await call(t.app, a, 'GET', '/api/mobileuser/sentgreeties'))).toEqual([other.id, awaiting.id]);
    });
  });
});
