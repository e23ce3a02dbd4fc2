import type { Db } from '../../db/index.ts';
import type { PushMessage, PushProvider } from './index.ts';

/** The sandbox push outbox: every push kept in `sandbox_push` (GET /api/sandbox/push, /sandbox). */
export function createSandboxPush(db: Db, now: () => Date): PushProvider {
  return {
    name: 'sandbox',
    async send(messages: PushMessage[]) {
      if (messages.length === 0) return [];
      const at = now();
      await db
        .insertInto('sandbox_push')
        .values(messages.map((m) => ({ user_id: m.userId, to_address: m.to, title: m.title, body: m.body, data: JSON.stringify(m.data), sent_at: at })))
        .execute();
      return messages.map(() => ({ ok: true as const, id: null }));
    },
    async receipts() {
      return {};
    },
  };
}

export interface SandboxPush {
  to: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
  sentAt: Date;
}

/** The outbox, newest first (the last 100), for one user or everybody. */
export async function readSandboxPush(db: Db, opts: { userId?: string } = {}): Promise<SandboxPush[]> {
  let q = db.selectFrom('sandbox_push').select(['to_address', 'title', 'body', 'data', 'sent_at']).orderBy('sent_at', 'desc').orderBy('id', 'desc').limit(100);
  if (opts.userId) q = q.where('user_id', '=', opts.userId);
  const rows = await q.execute();
  return rows.map((r) => ({ to: r.to_address, title: r.title, body: r.body, data: r.data, sentAt: r.sent_at }));
}
