import { sql, type Kysely } from 'kysely';

/**
 * Code pools (docs/decisions/080-payment-provider.md "Code pools"): a "Code" product's
 * vouchers each take one code of the product's pool, which the operator loads with
 * `npm run admin -- codes load`.
 *
 * `product_code`: one code of a product (unique per product). A code is *free* while no payment
 * holds it and it was never taken; startpayment *reserves* codes for its Code gifts (payment_id),
 * the paid transaction *takes* them (taken_at, voucher_id), and a payment that ends unpaid
 * releases them (payment_id back to NULL). A taken code stays taken even when its voucher is
 * deleted (voucher_id SET NULL, taken_at kept): a code handed out is never handed out again.
 *
 * `code_pool`: the number of free codes per product, kept in the same transaction as every
 * reserve, release and load. Its row is the gate: a reservation is one conditional UPDATE
 * (`free >= n`), so concurrent reservations of one product are serialised on that row and can
 * never promise more codes than there are. It is also what the catalogue shows (Product.available)
 * and what a draft is checked against.
 *
 * The catalogue cache (decisions 031/064) learns of a pool running out or being refilled through
 * the catalogue version trigger: a row trigger on code_pool bumps the version (and notifies)
 * only when `free > 0` flips, not on every code taken.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE product_code (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      product_id uuid NOT NULL REFERENCES product (id),
      code text NOT NULL CHECK (length(code) BETWEEN 1 AND 200),
      payment_id uuid REFERENCES payment (id) ON DELETE SET NULL,
      voucher_id uuid REFERENCES voucher (id) ON DELETE SET NULL,
      taken_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX product_code_code ON product_code (product_id, code)`.execute(db);
  // Reserving: the free codes of a product.
  await sql`CREATE INDEX product_code_free ON product_code (product_id) WHERE payment_id IS NULL AND taken_at IS NULL`.execute(db);
  // Taking and releasing: the codes a payment holds.
  await sql`CREATE INDEX product_code_payment ON product_code (payment_id) WHERE payment_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX product_code_voucher ON product_code (voucher_id) WHERE voucher_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE code_pool (
      product_id uuid PRIMARY KEY REFERENCES product (id),
      free integer NOT NULL DEFAULT 0 CHECK (free >= 0),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // A trigger's WHEN cannot read TG_OP: one trigger for a new pool, one for a changed one.
  await sql`
    CREATE TRIGGER code_pool_catalogue_version_insert
      AFTER INSERT ON code_pool
      FOR EACH ROW WHEN (NEW.free > 0)
      EXECUTE FUNCTION greetie_bump_catalogue_version()`.execute(db);
  await sql`
    CREATE TRIGGER code_pool_catalogue_version_update
      AFTER UPDATE OF free ON code_pool
      FOR EACH ROW WHEN ((NEW.free > 0) IS DISTINCT FROM (OLD.free > 0))
      EXECUTE FUNCTION greetie_bump_catalogue_version()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE code_pool`.execute(db);
  await sql`DROP TABLE product_code`.execute(db);
}
