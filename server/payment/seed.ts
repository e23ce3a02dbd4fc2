import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { transaction, type Db } from '../db/index.ts';
import { demoMerchants, demoProductId } from '../merchant/seed.ts';

/** How many codes each demo Code product's pool gets. */
export const DEMO_CODES_PER_PRODUCT = 200;

/** A demo code: "DEMO-" and 12 random letters and digits in groups of four (no 0/O, 1/I). */
export function demoCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const chars = [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
  return `DEMO-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/**
 * Demo data (server/seed.ts): every demo "Code" product gets a pool of generated codes, once
 * (a product whose pool exists, even emptied, is left alone; the table lock makes the check and
 * the fill one step when two processes start together).
 */
export async function seedCodePools(db: Db): Promise<void> {
  const wanted = demoMerchants.flatMap((m) => m.products.map((p, j) => ({ id: demoProductId(m, j), source: p.source }))).filter((p) => p.source === 'Code');
  if (wanted.length === 0) return;
  await transaction(db, async (tx) => {
    await sql`LOCK TABLE code_pool IN EXCLUSIVE MODE`.execute(tx);
    const { rows } = await sql<{ id: string }>`
      SELECT p.id FROM product p
       WHERE p.id = ANY(${wanted.map((p) => p.id)}::uuid[]) AND p.source = 'Code'
         AND NOT EXISTS (SELECT 1 FROM code_pool cp WHERE cp.product_id = p.id)`.execute(tx);
    for (const { id } of rows) {
      const codes = [...new Set(Array.from({ length: DEMO_CODES_PER_PRODUCT }, demoCode))];
      await sql`INSERT INTO product_code (product_id, code) SELECT ${id}::uuid, c FROM unnest(${codes}::text[]) AS c`.execute(tx);
      await sql`INSERT INTO code_pool (product_id, free) VALUES (${id}, ${codes.length})`.execute(tx);
    }
  });
}
