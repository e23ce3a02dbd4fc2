import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { Services } from '../services.ts';
import { createSmsSender } from '../providers/sms/index.ts';
import { createPaymentProvider } from '../providers/payment/index.ts';
import { createStorage } from '../providers/storage/index.ts';
import { createMediaCleanup } from '../media/rules.ts';
import { createDeliveryQueue } from '../delivery/queue.ts';
import { createPushProvider } from '../providers/push/index.ts';
import { createWebPushSender, resolveVapidKeys, type WebPushSenderOptions } from '../providers/push/webpush.ts';
import { createNotificationQueue } from '../notification/queue.ts';
import { Listener } from '../db/listener.ts';
import { CatalogueCache } from '../merchant/cache.ts';
import { PaymentEvents } from '../payment/events.ts';
import { rateEventPurgeJob } from '../auth/retention.ts';
import { portalFold } from '../portal/fold.ts';
import { periodic } from '../periodic.ts';

export interface LifecycleOptions {
  config: Config;
  db: Db;
  /** Replace services (clock, SMS gateway…) in tests. */
  services?: Partial<Services>;
  /** Tests only: how the Web Push sender reaches the tests' fake push service. */
  webpush?: Pick<WebPushSenderOptions, 'ca' | 'resolve' | 'reachable'>;
  /** The database's connection string, for the process's one LISTEN connection (server/db/listener.ts). */
  databaseUrl?: string;
}

/**
 * The services the routes use (`app.config`, `app.db`, `app.services`, `app.catalogueCache`) and
 * what runs beside the requests: started once the app is ready, stopped on close before the pool
 * is. Also how a shutdown ends keep-alive connections.
 */
const lifecycle: FastifyPluginAsync<LifecycleOptions> = async (app, deps) => {
  const { config } = deps;
  app.decorate('config', config);
  app.decorate('db', deps.db);
  const services = { now: () => new Date(), ...deps.services } as Services;
  // Reads the clock through `services` so a test that moves `now` moves the outbox's times too.
  services.sms ??= createSmsSender(config, deps.db, () => services.now());
  services.storage ??= createStorage(config);
  services.media ??= createMediaCleanup(services.storage);
  services.payments ??= createPaymentProvider(config, deps.db, () => services.now());
  services.delivery ??= createDeliveryQueue({ db: deps.db, config, services, log: app.log });
  services.push ??= createPushProvider(config, deps.db, () => services.now());
  // One VAPID key pair for every process: the settings' or the database's (decision 095).
  services.webpush ??= createWebPushSender({
    keys: await resolveVapidKeys(deps.db, { keys: config.push.vapidKeys, dataDir: config.dataDir }),
    subject: config.push.vapidSubject,
    allowedHosts: config.push.webpushAllowedHosts,
    ...deps.webpush,
  });
  services.notifications ??= createNotificationQueue({ db: deps.db, config, services, log: app.log });
  app.decorate('services', services);
  // The delivery worker (DELIVERY_WORKER, on by default; decision 081) runs with the app: started
  // once it is ready, stopped on close before the pool is (deliveries in flight finish first).
  if (config.delivery.worker) {
    app.addHook('onReady', async () => {
      await services.delivery.start();
      await services.notifications.start();
    });
    app.addHook('onClose', async () => {
      await services.notifications.stop();
      await services.delivery.stop();
    });
  }

  // The process's one LISTEN connection, shared by the portal's fold, the catalogue cache and the
  // payment events; started after them (they subscribe first), closed after them.
  const listener = new Listener({ url: deps.databaseUrl, log: app.log });

  // The periodic jobs run through one helper (server/periodic.ts): started once the app is ready,
  // never two runs of one job at once, a failure logged and the pace kept, stopped on close after
  // the run in flight.
  // Rate-limit events (IP addresses, numbers) older than 30 days are deleted at start-up and every
  // hour, as the privacy policy promises (server/auth/retention.ts).
  periodic(app, rateEventPurgeJob({ db: deps.db, now: () => services.now(), log: app.log }));
  // The portal's open-voucher deltas folded when their trigger notifies, one process at a time
  // (decisions 124, 147).
  portalFold(app, { db: deps.db, listener: deps.databaseUrl ? listener : undefined });

  // The catalogue's answers, emptied by PostgreSQL notifications once listening (decision 064).
  const catalogueCache = new CatalogueCache(deps.db, { listener: deps.databaseUrl ? listener : undefined });
  app.decorate('catalogueCache', catalogueCache);
  app.addHook('onReady', async () => {
    await catalogueCache.start();
  });
  app.addHook('onClose', async () => {
    await catalogueCache.close();
  });

  // Who waits to hear of a payment: PostgreSQL notifications across processes (decision 116).
  const paymentEvents = new PaymentEvents({ listener: deps.databaseUrl ? listener : undefined });
  app.decorate('paymentEvents', paymentEvents);
  app.addHook('onReady', async () => {
    await paymentEvents.start();
  });
  // Open streams end before the server waits for its connections to close.
  app.addHook('preClose', async () => {
    paymentEvents.endStreams();
  });
  app.addHook('onClose', async () => {
    await paymentEvents.close();
  });
  app.addHook('onReady', async () => {
    await listener.start();
  });
  app.addHook('onClose', async () => {
    await listener.close();
  });

  // Shutting down (decision 002): an answer still being made when close begins goes out with
  // `Connection: close`, so its keep-alive connection ends with it. Otherwise that connection
  // would stay open, idle, for the keep-alive timeout, and hold close() up long after the last
  // request was answered.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
};

export default fp(lifecycle, { name: 'greetie-lifecycle' });
