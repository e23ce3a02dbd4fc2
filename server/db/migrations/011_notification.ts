import { sql, type Kysely } from 'kysely';

/**
 * Notifications and push (decision 092).
 *
 * - `notification`: one row per thing that happened to a user. It keeps the kind and the names it
 *   speaks of (`params`); title and body are written from them when read (Swedish: the user's
 *   language is not stored). `dedupe_key` makes each event notify once however often its code
 *   runs (a delivery reconciled twice, a job run twice). `push_state` is the push's claim:
 *   pending → sending (committed before any provider is called) → sent, never pushed twice.
 * - Two events are single statements in their owners' code (a greetie marked viewed, a voucher
 *   redeemed — the redeem's fast path has no transaction): triggers below add their notification
 *   in the same statement; the push sweep pushes rows whose job was never added.
 * - `expo_push_token`: a device's Expo push token; a token belongs to whoever registered it last.
 * - `expo_push_ticket`: tickets whose receipts are still to be fetched (15 min to a day later).
 * - `webpush_subscription`: a browser's PushSubscription; its endpoint, like a token, moves.
 * - `sandbox_push`: the sandbox outbox (PUSH_PROVIDER=sandbox).
 * - The pg-boss queue `notification` (jobs: push one notification; an expiry reminder).
 */
export const NOTIFICATION_QUEUE = 'notification';

export const NOTIFICATION_TYPES = [
  'greetieReceived',
  'greetieDelivered',
  'greetieViewed',
  'paymentSucceeded',
  'paymentFailed',
  'voucherRedeemed',
  'voucherExpiring',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE notification (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES mobile_user (id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN (${sql.join(NOTIFICATION_TYPES.map((t) => sql.lit(t)))})),
      greetie_id uuid REFERENCES greetie (id) ON DELETE SET NULL,
      voucher_id uuid REFERENCES voucher (id) ON DELETE SET NULL,
      params jsonb NOT NULL DEFAULT '{}'::jsonb,
      dedupe_key text NOT NULL UNIQUE,
      read_at timestamptz,
      push_state text NOT NULL DEFAULT 'pending' CHECK (push_state IN ('pending', 'sending', 'sent')),
      push_since timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX notification_user_created ON notification (user_id, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX notification_user_unread ON notification (user_id) WHERE read_at IS NULL`.execute(db);
  await sql`CREATE INDEX notification_push_open ON notification (created_at) WHERE push_state <> 'sent'`.execute(db);

  await sql`
    CREATE TABLE expo_push_token (
      token text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES mobile_user (id) ON DELETE CASCADE,
      device_id text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, device_id)
    )`.execute(db);
  await sql`
    CREATE TABLE expo_push_ticket (
      id text PRIMARY KEY,
      token text NOT NULL,
      notification_id uuid REFERENCES notification (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX expo_push_ticket_created ON expo_push_ticket (created_at)`.execute(db);
  await sql`
    CREATE TABLE webpush_subscription (
      endpoint text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES mobile_user (id) ON DELETE CASCADE,
      p256dh text NOT NULL,
      auth text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX webpush_subscription_user ON webpush_subscription (user_id)`.execute(db);
  await sql`
    CREATE TABLE sandbox_push (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id uuid REFERENCES mobile_user (id) ON DELETE CASCADE,
      to_address text NOT NULL,
      title text NOT NULL,
      body text NOT NULL,
      data jsonb NOT NULL DEFAULT '{}'::jsonb,
      sent_at timestamptz NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sandbox_push_user ON sandbox_push (user_id, sent_at DESC)`.execute(db);

  // Viewed: the sender hears it once (not for a greetie sent to oneself).
  await sql`
    CREATE FUNCTION notify_greetie_viewed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.sender_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM mobile_user u WHERE u.id = NEW.sender_id AND u.mobile_number = NEW.recipient_number
      ) THEN
        INSERT INTO notification (user_id, type, greetie_id, params, dedupe_key, created_at)
        VALUES (NEW.sender_id, 'greetieViewed', NEW.id,
                jsonb_build_object('recipientName', NEW.recipient_name),
                'greetieViewed:' || NEW.id, NEW.viewed_at)
        ON CONFLICT (dedupe_key) DO NOTHING;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER greetie_viewed_notify AFTER UPDATE OF viewed_at ON greetie
    FOR EACH ROW WHEN (OLD.viewed_at IS NULL AND NEW.viewed_at IS NOT NULL)
    EXECUTE FUNCTION notify_greetie_viewed()`.execute(db);

  // Redeemed: the voucher's owner (the user with the greetie's recipient number) hears it once.
  await sql`
    CREATE FUNCTION notify_voucher_redeemed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO notification (user_id, type, greetie_id, voucher_id, params, dedupe_key, created_at)
      SELECT u.id, 'voucherRedeemed', g.id, NEW.id,
             jsonb_build_object('merchantName', m.name, 'productName', p.name),
             'voucherRedeemed:' || NEW.id, NEW.redeemed_at
        FROM greetie g
        JOIN mobile_user u ON u.mobile_number = g.recipient_number
        JOIN merchant m ON m.id = NEW.merchant_id
        JOIN product p ON p.id = NEW.product_id
       WHERE g.id = NEW.greetie_id
      ON CONFLICT (dedupe_key) DO NOTHING;
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER voucher_redeemed_notify AFTER UPDATE OF redeemed_at ON voucher
    FOR EACH ROW WHEN (OLD.redeemed_at IS NULL AND NEW.redeemed_at IS NOT NULL)
    EXECUTE FUNCTION notify_voucher_redeemed()`.execute(db);

  // The queue: pg-boss retries a push job twice (a claim makes a second run a no-op); the sweep
  // (server/notification/queue.ts) pushes what no job did.
  const options = { policy: 'standard', retryLimit: 2, retryDelay: 30, expireInSeconds: 120, retentionMinutes: 24 * 60 };
  await sql`SELECT pgboss.create_queue(${NOTIFICATION_QUEUE}, ${JSON.stringify(options)}::json)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`SELECT pgboss.delete_queue(${NOTIFICATION_QUEUE})`.execute(db);
  await sql`DROP TRIGGER voucher_redeemed_notify ON voucher`.execute(db);
  await sql`DROP TRIGGER greetie_viewed_notify ON greetie`.execute(db);
  await sql`DROP FUNCTION notify_voucher_redeemed()`.execute(db);
  await sql`DROP FUNCTION notify_greetie_viewed()`.execute(db);
  await sql`DROP TABLE sandbox_push, webpush_subscription, expo_push_ticket, expo_push_token, notification`.execute(db);
}
