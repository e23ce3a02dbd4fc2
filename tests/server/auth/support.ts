import type { FastifyInstance } from 'fastify';
import { createTestApp, type TestApp } from '../helpers.ts';
import type { SmsSender } from '../../../server/providers/sms/index.ts';

/** A clock tests move by hand; the app reads it through services.now. */
export class TestClock {
  ms = Date.parse('2026-11-21T08:00:00.000Z');
  now = () => new Date(this.ms);
  advance(ms: number) {
    this.ms += ms;
  }
}

export const DEVICE = '00000000-0000-0000-0000-000000000000';

let numberSeq = 0;
/** A fresh, valid Swedish mobile number for each call (070-1xx xx xx). */
export function freshNumber(): string {
  numberSeq += 1;
  return `+4670${String(1_000_000 + numberSeq * 7919).slice(-7)}`;
}

let ipSeq = 0;
export function freshIp(): string {
  ipSeq += 1;
  return `10.0.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

export async function authTestApp(opts: { sms?: SmsSender; env?: Record<string, string> } = {}) {
  const clock = new TestClock();
  const t: TestApp = await createTestApp({ services: { now: clock.now, ...(opts.sms ? { sms: opts.sms } : {}) }, env: opts.env });
  return { ...t, clock };
}

export async function requestCode(app: FastifyInstance, mobileNumber: string, ip = freshIp()) {
  return app.inject({ method: 'POST', url: '/api/auth/verificationcode', payload: { mobileNumber }, remoteAddress: ip });
}

/** The code in the newest sandbox SMS to this number. */
export async function lastCode(app: FastifyInstance, e164: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/sandbox/sms?to=${encodeURIComponent(e164)}` });
  const body = (res.json() as { body: string }[])[0]?.body ?? '';
  const m = /Din Greetie-kod är (\d{6})/.exec(body);
  if (!m) throw new Error(`no code in the outbox for ${e164}`);
  return m[1]!;
}

export async function login(app: FastifyInstance, token: string, code: string) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { token, code, deviceId: DEVICE } });
}

/** Signs a fresh number in: returns its tokens. */
export async function signIn(app: FastifyInstance, mobileNumber = freshNumber()) {
  const res = await requestCode(app, mobileNumber);
  if (res.statusCode !== 200) throw new Error(`verificationcode answered ${res.statusCode}: ${res.body}`);
  const code = await lastCode(app, mobileNumber);
  const ok = await login(app, res.json().token, code);
  if (ok.statusCode !== 200) throw new Error(`login answered ${ok.statusCode}: ${ok.body}`);
  return { mobileNumber, ...(ok.json() as { token: string; refreshToken: string }) };
}

export const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
