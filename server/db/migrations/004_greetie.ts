import { sql, type Kysely } from 'kysely';

/**
 * Greeties: the greetie itself (a draft while it is being composed), its gifts (products
 * with the amount fixed on the server), and its media files (the photo or video, its thumbnail or
 * poster, the flattened overlay, and the images of `picture` elements).
 *
 * Media bytes live in the storage (a folder under DATA_DIR, or an S3-compatible bucket); a row
 * here names each stored object by an unguessable key (≥ 128 random bits, base64url).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE greetie (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- The public reference in the recipient's link (/greetie/view/{refId}): 128 random bits.
      ref_id text NOT NULL UNIQUE CHECK (ref_id ~ '^[A-Za-z0-9_-]{22,}$'),
      -- Kept when the sender deletes their account: delivered greeties stay with their recipients.
      sender_id uuid REFERENCES mobile_user (id) ON DELETE SET NULL,
      recipient_number text CHECK (recipient_number ~ '^\\+[1-9][0-9]{6,14}$'),
      recipient_name text CHECK (length(recipient_name) <= 100),
      message text NOT NULL DEFAULT '' CHECK (length(message) <= 1000),
      content jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(content) = 'array'),
      status text NOT NULL DEFAULT 'draft'
        CHECK (status IN ('draft', 'awaitingPayment', 'scheduled', 'delivered', 'deliveryFailed')),
      -- öre; the sum of the gifts, computed on the server whenever the gifts change.
      total integer NOT NULL DEFAULT 0 CHECK (total >= 0),
      deliver_at timestamptz,
      delivered_at timestamptz,
      viewed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // GET /greetie: what the caller sent, and what was sent to their number, newest first (keyset on
  // created_at, id).
  await sql`CREATE INDEX greetie_sender_created ON greetie (sender_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX greetie_recipient_created ON greetie (recipient_number, created_at DESC, id DESC)`.execute(db);

  await sql`
    CREATE TABLE greetie_gift (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      position smallint NOT NULL CHECK (position BETWEEN 0 AND 9),
      product_id uuid NOT NULL REFERENCES product (id),
      -- öre: the product's fixed price, or the chosen amount inside its min/max.
      amount integer NOT NULL CHECK (amount > 0),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (greetie_id, position)
    )`.execute(db);

  await sql`
    CREATE TABLE media_file (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      greetie_id uuid NOT NULL REFERENCES greetie (id) ON DELETE CASCADE,
      -- media: the photo or video; thumbnail: its still (a photo's small copy, a video's poster);
      -- overlay: the content flattened to one image; picture: the image of a picture element.
      role text NOT NULL CHECK (role IN ('media', 'thumbnail', 'overlay', 'picture')),
      kind text NOT NULL CHECK (kind IN ('photo', 'video')),
      storage_key text NOT NULL UNIQUE CHECK (storage_key ~ '^[A-Za-z0-9_-]{22,}(\\.[a-z0-9]{1,5})?$'),
      content_type text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      width integer,
      height integer,
      duration_ms integer,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX media_file_greetie_role ON media_file (greetie_id, role)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE media_file`.execute(db);
  await sql`DROP TABLE greetie_gift`.execute(db);
  await sql`DROP TABLE greetie`.execute(db);
}
