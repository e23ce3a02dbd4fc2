import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect, migrateToLatest } from '../../server/db/index.ts';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../server/db/embedded.ts';
import { seed } from '../../server/seed.ts';
import { removeDataDir } from '../../server/db/datadir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser (or CREATEDB) URL on the test PostgreSQL server. */
    adminUrl: string;
    /** A migrated, seeded database that each test file copies (CREATE DATABASE … TEMPLATE). */
    templateDb: string;
  }
}

/**
 * Server tests run on real PostgreSQL: TEST_DATABASE_URL when set, otherwise one embedded
 * server for the whole run. Migrations and seed data are applied once to a template database;
 * every test file gets its own copy, so files run in parallel without seeing each other's rows.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedDatabase | undefined;
  let dir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(tmpdir(), 'greetie-test-db-'));
    embedded = await startEmbeddedPostgres(dir, () => {});
    adminUrl = embedded.url;
  }
  const templateDb = `greetie_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${templateDb}`);
  const url = new URL(adminUrl);
  url.pathname = `/${templateDb}`;
  const handle = connect(url.toString(), { max: 2 });
  await migrateToLatest(handle.db);
  await seed(handle.db);
  await handle.close();

  project.provide('adminUrl', adminUrl);
  project.provide('templateDb', templateDb);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${templateDb} WITH (FORCE)`);
    await admin.end();
    if (embedded) await embedded.stop();
    if (dir) removeDataDir(dir);
  };
}
