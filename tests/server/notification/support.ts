import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../../server/db/index.ts';
import type { PushDeps } from '../../../server/notification/rules.ts';

/** The app's own push deps (its db, config and services), as the worker has them. */
export function pushDeps(app: FastifyInstance): PushDeps {
  return { db: app.db, config: app.config, services: app.services };
}

export interface NotificationDbRow {
  id: string;
  type: string;
  greetie_id: string | null;
  voucher_id: string | null;
  push_state: string;
  read_at: Date | null;
}

export async function notificationsOf(db: Db, userId: string): Promise<NotificationDbRow[]> {
  const { rows } = await sql<NotificationDbRow>`
    SELECT id, type, greetie_id, voucher_id, push_state, read_at FROM notification WHERE user_id = ${userId} ORDER BY created_at, id`.execute(db);
  return rows;
}

export async function userIdOf(db: Db, mobileNumber: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM mobile_user WHERE mobile_number = ${mobileNumber}`.execute(db);
  return rows[0]!.id;
}

/** The notification queue's jobs of one kind (pg-boss), oldest first. */
export async function jobs(db: Db, kind: 'push' | 'expiry'): Promise<{ data: Record<string, unknown>; start_after: Date }[]> {
  const { rows } = await sql<{ data: Record<string, unknown>; start_after: Date }>`
    SELECT data, start_after FROM pgboss.job WHERE name = 'notification' AND data->>'kind' = ${kind} ORDER BY created_on, start_after`.execute(db);
  return rows;
}
