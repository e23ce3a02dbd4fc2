/**
 * Serves checkouts side by side for an A/B of the pages (decision 156), each with a delivered
 * greetie to view, until stopped (Ctrl-C):
 *   node --import tsx bench/serve-sides.ts main=/path/to/checkout:/path/to/dist this=.:dist
 * Prints each side's base URL and its view's path; bench/main-thread-tasks.ts takes the URLs.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serve, stop, type Served } from './server.ts';
import { deliveredGreetieWithPhoto } from './view.ts';
import { signIn } from './auth.ts';
import { removeDataDir } from '../server/db/datadir.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'greetie-sides-'));
const served: { server: Served; dataDir: string }[] = [];
const recipient = () => `+46709${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

async function main(): Promise<void> {
  for (const arg of process.argv.slice(2)) {
    const [label, rest] = arg.split(/=(.*)/s) as [string, string];
    const [root, dist] = rest.split(':') as [string, string];
    const dataDir = path.join(work, `data-${label}`);
    const server = await serve({ dataDir, staticDir: path.resolve(dist), env: { TRUST_PROXY: 'on' }, root: path.resolve(root) });
    served.push({ server, dataDir });
    const view = (await deliveredGreetieWithPhoto(server.baseUrl, signIn, recipient())).path;
    process.stdout.write(`${label} ${server.baseUrl} ${view}\n`);
  }
}

const shutdown = async () => {
  for (const s of served) {
    await stop(s.server);
    removeDataDir(s.dataDir);
  }
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
  void shutdown();
});
