import type { Db } from '../../db/index.ts';
import type { SmsMessage, SmsSender } from './provider.ts';

/**
 * The sandbox outbox: messages are kept in the database (so every API process and a restart see
 * the same outbox) instead of being sent. GET /api/sandbox/sms shows them.
 */
export function createSandboxSms(db: Db, now: () => Date): SmsSender {
  return {
    async send({ to, body }: SmsMessage) {
      await db.insertInto('sandbox_sms').values({ to_number: to, body, sent_at: now() }).execute();
    },
    async confirmSent({ to, body }: SmsMessage) {
      const row = await db.selectFrom('sandbox_sms').select('id').where('to_number', '=', to).where('body', '=', body).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}

export interface OutboxEntry {
  to: string;
  body: string;
  sentAt: Date;
}

/** Newest first; at most `limit`. */
export async function readSandboxOutbox(db: Db, opts: { to?: string; limit?: number } = {}): Promise<OutboxEntry[]> {
  let q = db.selectFrom('sandbox_sms').select(['to_number', 'body', 'sent_at']);
  if (opts.to) q = q.where('to_number', '=', opts.to);
  const rows = await q
    .orderBy('sent_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit ?? 100)
    .execute();
  return rows.map((r) => ({ to: r.to_number, body: r.body, sentAt: r.sent_at }));
}
