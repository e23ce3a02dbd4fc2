import './v8-flags.ts';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { parseConfig, resolveTokenSigningKey } from './config.ts';
import { buildApp, loggerOptions } from './app.ts';
import type { FastifyInstance } from 'fastify';
import { connect, ensureDatabase, migrateToLatest, type DatabaseHandle } from './db/index.ts';
import { DataDirError, checkDataDir, startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.ts';
import { seed } from './seed.ts';
import { startPaymentReconciler, type Reconciler } from './payment/reconcile.ts';

/**
 * `npm start` / `npm run serve`: validate settings, bring up the database (embedded unless
 * DATABASE_URL is set), migrate, seed an empty database, then serve the SPA and /api on one port.
 * SIGINT/SIGTERM: stop accepting, finish requests in flight, close the pool, stop the database.
 */
async function main(): Promise<void> {
  const parsed = parseConfig(process.env);
  if (!parsed.ok) {
    for (const line of parsed.errors) console.error(`config: ${line}`);
    process.exit(2);
  }
  // DATA_DIR holds the embedded database and the generated signing key; a folder we cannot write
  // is a settings problem, reported before anything starts.
  if (!parsed.config.databaseUrl || !parsed.config.tokenSigningKey) checkDataDir(parsed.config.dataDir);
  const config = resolveTokenSigningKey(parsed.config);
  const log = pino(loggerOptions(config) as pino.LoggerOptions);

  let embedded: EmbeddedDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;
  let reconciler: Reconciler | undefined;
  const shutdown = async () => {
    if (reconciler) await reconciler.stop();
    if (app) await app.close(); // stop accepting; requests in flight finish
    if (handle) await handle.close();
    if (embedded) await embedded.stop(); // fast shutdown: committed data is on disk
  };
  try {
    let url = config.databaseUrl;
    if (!url) {
      embedded = await startEmbeddedPostgres(config.dataDir, (msg) => log.info(msg));
      url = await ensureDatabase(embedded.url, 'greetie');
    }
    handle = connect(url, { max: config.databasePoolSize });
    const applied = await migrateToLatest(handle.db);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');
    await seed(handle.db);
    app = await buildApp(config, { db: handle.db, databaseUrl: url });
    await app.listen({ port: config.port, host: config.host });
    // Open payments are checked with the provider now (a crash between its PAID and our write)
    // and every 30 s after (server/payment/reconcile.ts).
    reconciler = startPaymentReconciler({ db: handle.db, config, services: app.services }, app.log);
  } catch (err) {
    await shutdown().catch(() => {});
    throw err;
  }

  closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await shutdown();
  });
  log.info(`Greetie is running at ${config.publicUrl}${config.sandbox ? ' (sandbox on)' : ''}`);
}

main().catch((err: unknown) => {
  if (err instanceof DataDirError) {
    console.error(`config: ${err.message}`);
    process.exit(2);
  }
  console.error('Greetie could not start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
