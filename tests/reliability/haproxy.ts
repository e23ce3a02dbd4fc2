import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../../server/net.ts';

/**
 * Debian's HAProxy in front of several server processes, as an operator would run it
 * (docs/decisions/065-scale-out-test.md). `.ci/run` installs the package when it is missing.
 */
export const HAPROXY = process.env.HAPROXY_BIN || '/usr/sbin/haproxy';

/** Whether HAProxy can run here (`haproxy -v` answers). */
export function haproxyAvailable(): boolean {
  const r = spawnSync(HAPROXY, ['-v'], { encoding: 'utf8' });
  return r.status === 0 && /HAProxy version/.test(r.stdout);
}

export interface Balancer {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The configuration the test writes (and the README's example follows): round robin over the
 * backends, /api/health checked every 500 ms (two failures take a server out, two answers bring
 * it back; an answer may take 2 s), short timeouts, and a request whose connection was refused is sent to another
 * server (`retries` + `option redispatch`: nothing was sent, so nothing can happen twice).
 * `option forwardfor` appends the caller's address to X-Forwarded-For; the servers trust the
 * proxy hops in front of them (TRUST_PROXY).
 */
export function haproxyConfig(port: number, backends: { name: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch',
    '  retries 3',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout http-request 10s',
    '  timeout http-keep-alive 5s',
    '',
    'frontend greetie',
    `  bind 127.0.0.1:${port}`,
    '  default_backend api',
    '',
    'backend api',
    '  balance roundrobin',
    '  option httpchk GET /api/health',
    '  http-check expect status 200',
    // A dead server refuses the check at once: out after two, about a second. A slow answer
    // (a loaded machine) has 2 s before it counts as a failure.
    '  timeout check 2s',
    '  default-server inter 500ms fall 2 rise 2',
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    '',
  ].join('\n');
}

/**
 * Writes the configuration into `dir`, checks it (`haproxy -c`) and runs HAProxy in the
 * foreground on `port` (a free one when not given: the servers may need the address first, as
 * their PUBLIC_URL). Resolves when a request through it reaches a healthy server.
 */
export async function startHaproxy(dir: string, backends: { name: string; port: number }[], port?: number): Promise<Balancer> {
  port ??= await freePort();
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, backends));
  const check = spawnSync(HAPROXY, ['-c', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the configuration:\n${check.stdout}${check.stderr}`);
  let out = '';
  // -db: stay in the foreground (no daemon), so the test owns the process and its exit.
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited:\n${out}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not pass /api/health within 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}
