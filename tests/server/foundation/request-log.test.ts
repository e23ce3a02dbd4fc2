import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '../../..');

/**
 * A process that logs through the app's request log destination (server/plugins/logging.ts),
 * then stays alive: what reached its standard output within `waitMs`, and after it exited.
 */
function logFrom(script: string, waitMs: number): Promise<{ early: string; all: string }> {
  const code = `
    import pino from 'pino';
    import { requestLogDestination } from './server/plugins/logging.ts';
    const dest = requestLogDestination();
    const log = pino({ level: 'info' }, dest.stream);
    ${script}
    process.stderr.write('logged\\n');
    setTimeout(() => void dest.flush().then(() => process.exit(0)), ${waitMs + 1500});
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root });
    let out = '';
    let early: string | undefined;
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      if (d.toString().includes('logged')) setTimeout(() => (early = out), waitMs);
      else reject(new Error(d.toString()));
    });
    child.on('exit', () => resolve({ early: early ?? '', all: out }));
  });
}

const messages = (text: string) => text.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('the request log destination (batched, decision 064)', () => {
  it('holds info lines back, and writes them at the latest on flush', async () => {
    const { early, all } = await logFrom("log.info('one'); log.info('two');", 300);
    expect(early).toBe('');
    expect(messages(all)).toEqual(['one', 'two']);
  }, 30_000);

  it('writes a warning at once, with every line before it', async () => {
    const { early, all } = await logFrom("log.info('before'); log.warn('careful'); log.info('after');", 300);
    expect(messages(early)).toEqual(['before', 'careful']);
    expect(messages(all)).toEqual(['before', 'careful', 'after']);
  }, 30_000);
});
