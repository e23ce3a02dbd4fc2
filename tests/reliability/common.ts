import type { Answer, Req, Send } from './target.ts';

/** `npm run test:reliability` sets RELIABILITY=long; `npm test` runs the quick, seeded pass. */
export const LONG = process.env.RELIABILITY === 'long';

/**
 * One seed for the whole run, printed first, so any failure can be replayed exactly:
 * FUZZ_SEED=<seed> npm run test:reliability:quick (or the long run).
 */
export function runSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be an integer (got "${given}")`);
    return n;
  }
  return (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
}

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

const ERROR_KEYS = new Set(['message', 'code', 'details']);

/**
 * Problems with one answer, or [] when it is fine: never 5xx; every non-2xx answer JSON in the
 * error shape of API.md; 429 carries Retry-After.
 */
export function answerProblems(a: Answer): string[] {
  const problems: string[] = [];
  if (a.status >= 500) problems.push(`server error ${a.status}`);
  if (a.status >= 200 && a.status < 300) return problems;
  // A conditional GET (If-None-Match) answered from the client's cache: no body by definition.
  if (a.status === 304) return a.body === '' ? problems : [...problems, '304 with a body'];
  const type = String(a.headers['content-type'] ?? '');
  if (!/^application\/json(;|$)/.test(type)) problems.push(`content-type "${type}" is not application/json`);
  let body: unknown;
  try {
    body = JSON.parse(a.body);
  } catch {
    problems.push(`body is not JSON: ${a.body.slice(0, 120)}`);
    return problems;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.push('body is not an object');
    return problems;
  }
  const b = body as Record<string, unknown>;
  if (typeof b.message !== 'string' || b.message.trim() === '') problems.push('message missing or not a non-empty string');
  if (typeof b.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(b.code)) problems.push(`code missing or not MACHINE_CODE: ${JSON.stringify(b.code)}`);
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) problems.push(`unexpected keys in the error body: ${extra.join(', ')}`);
  if (a.status === 429 && !a.headers['retry-after']) problems.push('429 without Retry-After');
  return problems;
}

export interface Session {
  token: string;
  refreshToken: string;
  userId: string;
  mobileNumber: string;
}

let numberCounter = 0;

/**
 * A Swedish mobile number nobody else in this run uses: 070-17x xx xx, varied by process and
 * counter so the per-number limits never meet twice.
 */
export function freshMobileNumber(): string {
  numberCounter += 1;
  const n = ((process.pid % 100) * 10_000 + numberCounter) % 1_000_000;
  return `+46701${String(n).padStart(6, '0')}`;
}

/** A caller address of its own, so per-IP limits treat suite users as different people. */
export function freshIp(): string {
  const n = Math.floor(Math.random() * 0xfffffe) + 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** Read the 6-digit code from the sandbox SMS outbox (newest first). */
export async function readCode(send: Send, mobileNumber: string): Promise<string> {
  const res = await send({ method: 'GET', url: `/api/sandbox/sms?to=${encodeURIComponent(mobileNumber)}` });
  if (res.status !== 200) throw new Error(`GET /api/sandbox/sms answered ${res.status}: ${res.body}`);
  const list = JSON.parse(res.body) as { to: string; body: string }[];
  const sms = list.find((m) => m.to === mobileNumber) ?? list[0];
  const code = sms && /\b(\d{6})\b/.exec(sms.body)?.[1];
  if (!code) throw new Error(`no code in the SMS outbox for ${mobileNumber}: ${res.body.slice(0, 200)}`);
  return code;
}

/** Sign in the way a person does: ask for a code, read the SMS, log in. */
export async function signIn(send: Send, mobileNumber = freshMobileNumber(), ip = freshIp()): Promise<Session> {
  const post = (url: string, body: unknown): Req => ({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress: ip,
  });
  const v = await send(post('/api/auth/verificationcode', { mobileNumber }));
  if (v.status !== 200) throw new Error(`verificationcode answered ${v.status}: ${v.body}`);
  const { token: verificationToken } = JSON.parse(v.body) as { token: string };
  const code = await readCode(send, mobileNumber);
  const l = await send(post('/api/auth/login', { token: verificationToken, code, deviceId: '00000000-0000-0000-0000-000000000000' }));
  if (l.status !== 200) throw new Error(`login answered ${l.status}: ${l.body}`);
  const { token, refreshToken } = JSON.parse(l.body) as { token: string; refreshToken: string };
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string };
  return { token, refreshToken, userId: payload.sub, mobileNumber };
}
