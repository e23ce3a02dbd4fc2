import { createTestApp, type TestApp } from '../server/helpers.ts';
import { freshIp, freshMobileNumber, signIn, type Session } from './common.ts';
import { harvestIds } from './harvest.ts';
import { operationsOf, type Operation } from './openapi.ts';
import { injectTarget, type Send } from './target.ts';

export interface Suite {
  t: TestApp;
  send: Send;
  ops: Operation[];
  /** Signed-in users, when the API has sign-in (owner first, then the other user). */
  users: Session[];
  knownIds: string[];
  /** Live secrets for the fuzzer: unused verification tokens and the users' refresh tokens. */
  knownStrings: string[];
  hasAuth: boolean;
}

/** Settings for the app under test (sandbox on, test key, quiet logs). */
export const SUITE_ENV: Record<string, string> = {};

export function hasSignIn(ops: Operation[]): boolean {
  const keys = new Set(ops.map((o) => o.key));
  return keys.has('POST /api/auth/verificationcode') && keys.has('POST /api/auth/login') && keys.has('GET /api/sandbox/sms');
}

/** Operations after which the suite's signed-in users no longer exist. */
const SESSION_ENDING = new Set(['DELETE /api/mobileuser/remove']);

export type Prepared = Omit<Suite, 't' | 'send'>;

/** What the fuzzer and the matrix need from a running API: its operations, users, ids, secrets. */
export async function prepare(send: Send): Promise<Prepared> {
  const doc = await send({ method: 'GET', url: '/api/openapi.json' });
  if (doc.status !== 200) throw new Error(`GET /api/openapi.json answered ${doc.status}`);
  // Deleting one's account ends the suite users' sessions for good: that operation goes last, so
  // every other one is still fuzzed with valid tokens (a stable sort keeps the rest in order).
  const ops = operationsOf(JSON.parse(doc.body)).sort((a, b) => Number(SESSION_ENDING.has(a.key)) - Number(SESSION_ENDING.has(b.key)));
  const hasAuth = hasSignIn(ops);
  const users = hasAuth ? [await signIn(send), await signIn(send)] : [];
  const knownIds = await harvestIds(
    send,
    ops,
    users.map((u) => u.token),
  );
  for (const u of users) knownIds.push(u.userId);
  const knownStrings: string[] = users.map((u) => u.refreshToken);
  if (hasAuth) {
    for (const mobileNumber of [freshMobileNumber(), freshMobileNumber()]) {
      const v = await send({
        method: 'POST',
        url: '/api/auth/verificationcode',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ mobileNumber }),
        remoteAddress: freshIp(),
      });
      if (v.status === 200) knownStrings.push((JSON.parse(v.body) as { token: string }).token);
    }
  }
  return { ops, users, knownIds, knownStrings, hasAuth };
}

/** The real app on its own database (in process), prepared. */
export async function startSuite(): Promise<Suite> {
  const t = await createTestApp({ env: SUITE_ENV });
  const send = injectTarget(t.app);
  return { t, send, ...(await prepare(send)) };
}
