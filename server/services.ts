import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { SmsSender } from './providers/sms/index.ts';
import type { Storage } from './providers/storage/index.ts';
import type { GreetieMediaCleanup } from './greetie/cleanup.ts';
import type { PaymentProvider } from './providers/payment/index.ts';
import type { DeliveryQueue } from './delivery/queue.ts';
import type { PushProvider } from './providers/push/index.ts';
import type { WebPushSender } from './providers/push/webpush.ts';
import type { NotificationQueue } from './notification/queue.ts';

/**
 * What the routes reach the outside world and the database through. buildApp decorates the
 * Fastify instance with these; tests pass their own (a fake SMS gateway, a fixed clock).
 * Each resource adds the services it needs here.
 */
export interface Services {
  /** The current time; tests move it to expire codes and tokens without waiting. */
  now: () => Date;
  /** SMS out: the sandbox outbox or 46elks, chosen by config.sms (server/providers/sms). */
  sms: SmsSender;
  /** Media bytes: a folder under DATA_DIR or an S3-compatible bucket (server/providers/storage). */
  storage: Storage;
  /** Deletes a deleted greetie's stored media (server/greetie/cleanup.ts); a no-op by default. */
  media: GreetieMediaCleanup;
  /** Payments: the sandbox provider or Swish, chosen by config.payment (server/providers/payment). */
  payments: PaymentProvider;
  /** The delivery job queue (server/delivery/queue.ts): jobs added in transactions; the worker when on. */
  delivery: DeliveryQueue;
  /** Push to the mobile app: the sandbox outbox or Expo, chosen by config.push (server/providers/push). */
  push: PushProvider;
  /** Web Push to browsers: one VAPID key pair for every process, allowed push services only (server/providers/push/webpush.ts). */
  webpush: WebPushSender;
  /** The notification jobs (server/notification/queue.ts): pushes and expiry reminders. */
  notifications: NotificationQueue;
}

/**
 * What a resource's rules work with: the database, the settings and the services. Rules take
 * this (or the part they use), never the Fastify instance, so they run the same from a route, a
 * job or the admin command.
 */
export interface Deps {
  db: Db;
  config: Config;
  services: Services;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    services: Services;
  }
}
