import type autocannon from 'autocannon';

/**
 * Sign-in for the benchmarks (`npm run bench` and bench/profile.ts): a fresh caller per code
 * request, and a whole sign-in through the sandbox SMS outbox. The server must run with the
 * sandbox on (the default) and, for the callers' addresses to count, TRUST_PROXY=on.
 */
let counter = 0;
/** A fresh Swedish mobile number and caller address per request: a crowd, not one client. */
export function freshCaller(): { mobileNumber: string; ip: string } {
  counter += 1;
  const n = counter;
  return { mobileNumber: `+4673${String(n).padStart(7, '0')}`, ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
}

/** An access token of a new user, signed in over HTTP with the code from the sandbox outbox. */
export async function signIn(baseUrl: string): Promise<string> {
  return (await signInWithNumber(baseUrl)).token;
}

/** As signIn, with the new user's number (to link them to something, a merchant say). */
export async function signInWithNumber(baseUrl: string): Promise<{ token: string; mobileNumber: string }> {
  const { mobileNumber, ip } = freshCaller();
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': ip };
  const v = await fetch(`${baseUrl}/api/auth/verificationcode`, { method: 'POST', headers, body: JSON.stringify({ mobileNumber }) });
  if (v.status !== 200) throw new Error(`verificationcode answered ${v.status}`);
  const { token } = (await v.json()) as { token: string };
  const sms = (await (await fetch(`${baseUrl}/api/sandbox/sms?to=${encodeURIComponent(mobileNumber)}`)).json()) as { body: string }[];
  const code = sms.map((m) => /\b(\d{6})\b/.exec(m.body)?.[1]).find(Boolean);
  const l = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ token, code, deviceId: '00000000-0000-0000-0000-000000000000' }),
  });
  if (l.status !== 200) throw new Error(`login answered ${l.status}`);
  return { token: ((await l.json()) as { token: string }).token, mobileNumber };
}

/** The code request as a crowd sends it: each request a fresh number from a fresh address. */
export const codeRequest = {
  method: 'POST' as const,
  path: '/api/auth/verificationcode',
  headers: { 'content-type': 'application/json' },
  setupRequest: (req: autocannon.Request): autocannon.Request => {
    const { mobileNumber, ip } = freshCaller();
    return { ...req, headers: { ...(req.headers ?? {}), 'x-forwarded-for': ip }, body: JSON.stringify({ mobileNumber }) };
  },
};
