import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../server/db/index.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import { createTestApp } from '../helpers.ts';
import { TestClock, freshNumber, signIn } from '../auth/support.ts';
import type { GreetieMediaCleanup } from '../../../server/greetie/cleanup.ts';

export { freshNumber };

/** A signed-in person: their number (E.164) and the Authorization header to send. */
export interface Person {
  mobileNumber: string;
  auth: { authorization: string };
}

/**
 * Signs a person in. Their profile gets `name` (a sender needs one: /send and /startpayment answer
 * 409 SENDER_NAME_REQUIRED without); null leaves the profile without a name.
 */
export async function person(app: FastifyInstance, mobileNumber = freshNumber(), name: string | null = 'Testperson'): Promise<Person> {
  const s = await signIn(app, mobileNumber);
  const p = { mobileNumber, auth: { authorization: `Bearer ${s.token}` } };
  if (name !== null) {
    const res = await call(app, p, 'POST', '/api/mobileuser', { name });
    if (res.statusCode !== 200) throw new Error(`POST /mobileuser answered ${res.statusCode}: ${res.body}`);
  }
  return p;
}

/**
 * The real app on its own database, with a clock the test moves (services.now) and a media
 * cleanup that records what it was asked to delete.
 */
export async function greetieTestApp() {
  const clock = new TestClock();
  const cleaned: { greetieId: string; storageKeys: string[] }[] = [];
  const media: GreetieMediaCleanup & { fail: boolean } = {
    fail: false,
    async deleteForGreetie(g) {
      if (media.fail) throw new Error('storage down');
      cleaned.push(g);
    },
  };
  const t = await createTestApp({ services: { now: clock.now, media } });
  return { ...t, clock, cleaned, media };
}

export function call(app: FastifyInstance, who: Person | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return app.inject({
    method,
    url,
    headers: { ...(who?.auth ?? {}) },
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
}

export interface Catalogue {
  /** Fixed price 149 kr. */
  fixed: string;
  /** Value voucher 100..1 000 kr. */
  value: string;
  /** An inactive product of an active merchant. */
  inactiveProduct: string;
  /** An active product of an inactive merchant. */
  inactiveMerchantProduct: string;
}

async function merchant(db: Db, name: string, active: boolean): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO merchant (name, description, logo_url, category, sources, active, code_hash)
    VALUES (${name}, '', '/merchants/x.svg', 'cafe', '{InStore,Charity}', ${active}, 'scrypt$16384$8$1$x$y')
    RETURNING id`.execute(db);
  return rows[0]!.id;
}

async function product(db: Db, merchantId: string, p: { name: string; price?: number; min?: number; max?: number; active?: boolean }) {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO product (merchant_id, name, source, price, min_amount, max_amount, valid_days, active)
    VALUES (${merchantId}, ${p.name}, ${p.price !== undefined ? 'InStore' : 'Charity'}, ${p.price ?? null}, ${p.min ?? null},
            ${p.max ?? null}, 365, ${p.active ?? true})
    RETURNING id`.execute(db);
  return rows[0]!.id;
}

/** Products of the test's own: a fixed-price one, a value voucher and two that cannot be bought. */
export async function catalogue(db: Db): Promise<Catalogue> {
  const open = await merchant(db, 'Testkaféet', true);
  const closed = await merchant(db, 'Stängda butiken', false);
  return {
    fixed: await product(db, open, { name: 'Fika för två', price: 14900 }),
    value: await product(db, open, { name: 'Valfritt belopp', min: 10000, max: 100000 }),
    inactiveProduct: await product(db, open, { name: 'Slutsåld', price: 5000, active: false }),
    inactiveMerchantProduct: await product(db, closed, { name: 'Hos stängda', price: 5000 }),
  };
}

/** A media file row of a greetie (the media resource's table), as its upload would leave it. */
export async function mediaRow(
  db: Db,
  greetieId: string,
  role: 'media' | 'thumbnail' | 'overlay' | 'picture',
  key: string,
  kind: 'photo' | 'video' = 'photo',
): Promise<void> {
  await sql`
    INSERT INTO media_file (greetie_id, role, kind, storage_key, content_type, size)
    VALUES (${greetieId}, ${role}, ${kind}, ${key}, 'image/jpeg', 1)`.execute(db);
}

/** Moves a greetie to a status the later issues set (paid, delivered…), as their code would. */
export async function setStatus(db: Db, id: string, status: Greetie['status'], deliveredAt?: Date): Promise<void> {
  await sql`UPDATE greetie SET status = ${status}, delivered_at = ${deliveredAt ?? null} WHERE id = ${id}`.execute(db);
}

/** Everything greeties hold, to prove a refusal changed nothing. */
export async function greetieTables(db: Db): Promise<string> {
  const { rows } = await sql<{ snapshot: string }>`
    SELECT (SELECT coalesce(json_agg(g ORDER BY g.id), '[]') FROM greetie g)::text || '|' ||
           (SELECT coalesce(json_agg(gg ORDER BY gg.id), '[]') FROM greetie_gift gg)::text AS snapshot`.execute(db);
  return rows[0]!.snapshot;
}
