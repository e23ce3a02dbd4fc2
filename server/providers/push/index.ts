import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { createExpoPush } from './expo.ts';
import { createSandboxPush } from './sandbox.ts';

/**
 * Pushing to the product's mobile app (decision 092): the Expo push service
 * (PUSH_PROVIDER=expo) or the sandbox outbox (PUSH_PROVIDER=sandbox, the default while the
 * sandbox is on). Web Push to browsers is webpush.ts, beside this.
 */
export interface PushMessage {
  /** An Expo push token (ExponentPushToken[…]); the sandbox also takes `user:<id>`. */
  to: string;
  /** Whose device it is (the sandbox outbox is read by user). */
  userId: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

/** One message's ticket: accepted (its id, for the receipt) or refused at once. */
export type PushTicket = { ok: true; id: string | null } | { ok: false; error: string; message?: string };
/** A receipt: delivered to Apple/Google, or an error (DeviceNotRegistered: the token is dead). */
export type PushReceipt = { ok: true } | { ok: false; error: string; message?: string };

export interface PushProvider {
  readonly name: 'sandbox' | 'expo';
  /** Sends in chunks; one ticket per message, in order. Throws when the service cannot be reached. */
  send(messages: PushMessage[]): Promise<PushTicket[]>;
  /** The receipts of tickets (ids the service gave); ids it no longer knows are left out. */
  receipts(ids: string[]): Promise<Record<string, PushReceipt>>;
}

export function createPushProvider(config: Config, db: Db, now: () => Date): PushProvider {
  return config.push.provider === 'expo' ? createExpoPush(config.push) : createSandboxPush(db, now);
}
