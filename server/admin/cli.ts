import { runAdmin } from './commands.ts';

/**
 * The operator's command line: `npm run admin -- <command>` (see `npm run admin -- help`).
 * Works on DATABASE_URL, or on the embedded database under DATA_DIR — also while the server
 * runs (docs/decisions/032-admin-command.md).
 */
async function readStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

runAdmin(process.argv.slice(2), {
  env: process.env,
  readStdin,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((err: unknown) => {
    console.error(`Fel / Error: ${err instanceof Error ? err.name : 'error'}`);
    process.exitCode = 1;
  });
