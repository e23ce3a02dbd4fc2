import { SignJWT, UnsecuredJWT, base64url, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_HEADER, AUDIENCE, ISSUER, deriveKeys, issueAccessToken, verifyAccessToken } from '../../../server/auth/tokens.ts';

/**
 * The access token check (server/auth/tokens.ts, decision 093) is node:crypto's HMAC and our own
 * claim checks, not jose's jwtVerify. Here it is held to jose, token by token: it accepts only
 * what jose accepts with the options decision 022 fixed (HS256 only, issuer, audience, sub/exp/iat
 * required, exp and nbf against `now`), and refuses everything jose refuses. Where the two differ
 * it is on purpose and stricter: any header but exactly ours, and a signature in any spelling but
 * the one base64url (no padding, no other last character for the same bytes).
 */
const SECRET = 'verify-test-signing-key-0123456789abcdef0123';
const keys = deriveKeys(SECRET);
const raw = new TextEncoder().encode(SECRET);
const NOW = new Date('2026-11-21T08:00:00.000Z');
const nowS = Math.floor(NOW.getTime() / 1000);
const USER = '0b0c6d4e-1111-4111-8111-111111111111';

async function joseSays(token: string, now: Date, tolerance = 0): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, raw, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
      ...(tolerance > 0 ? { clockTolerance: tolerance } : {}),
    });
    return typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null;
  } catch {
    return null;
  }
}

/** A token with our header, signed with `key`, of any claims (also ones we never issue). */
function ours(claims: unknown, key: Uint8Array | string = SECRET): Promise<string> {
  return new SignJWT(claims as Record<string, unknown>).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(typeof key === 'string' ? new TextEncoder().encode(key) : key);
}
/** Our header and key over a payload given as text (not even JSON, or not an object). */
async function signedText(payload: string): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const body = `${ACCESS_TOKEN_HEADER}.${Buffer.from(payload).toString('base64url')}`;
  return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
}

const base = { sub: USER, iss: ISSUER, aud: AUDIENCE, iat: nowS, exp: nowS + 900 };

describe('verifyAccessToken against jose', () => {
  it('issues tokens whose header is exactly the one it accepts', async () => {
    const token = await issueAccessToken(keys, USER, NOW);
    expect(token.split('.')[0]).toBe(ACCESS_TOKEN_HEADER);
    expect(verifyAccessToken(keys, token, NOW)).toBe(USER);
    expect(await joseSays(token, NOW)).toBe(USER);
  });

  it('agrees with jose on claims, times, signatures and shapes', async () => {
    const valid = await issueAccessToken(keys, USER, NOW);
    const [h, p, s] = valid.split('.') as [string, string, string];
    const flip = (x: string) => (x[0] === 'A' ? 'B' : 'A') + x.slice(1);
    const cases: Record<string, string> = {
      valid,
      'aud as a list with ours': await ours({ ...base, aud: ['other', AUDIENCE] }),
      'aud as a list without ours': await ours({ ...base, aud: ['other'] }),
      'wrong issuer': await ours({ ...base, iss: 'someone-else' }),
      'issuer as a list': await ours({ ...base, iss: [ISSUER] }),
      'wrong audience': await ours({ ...base, aud: 'other-api' }),
      'no iss': await ours({ sub: USER, aud: AUDIENCE, iat: nowS, exp: nowS + 900 }),
      'no aud': await ours({ sub: USER, iss: ISSUER, iat: nowS, exp: nowS + 900 }),
      'no sub': await ours({ iss: ISSUER, aud: AUDIENCE, iat: nowS, exp: nowS + 900 }),
      'empty sub': await ours({ ...base, sub: '' }),
      'sub a number': await ours({ ...base, sub: 42 }),
      'no exp': await ours({ sub: USER, iss: ISSUER, aud: AUDIENCE, iat: nowS }),
      'no iat': await ours({ sub: USER, iss: ISSUER, aud: AUDIENCE, exp: nowS + 900 }),
      'exp a string': await ours({ ...base, exp: String(nowS + 900) }),
      'iat a string': await ours({ ...base, iat: String(nowS) }),
      'iat null': await ours({ ...base, iat: null }),
      'iat in the future': await ours({ ...base, iat: nowS + 3600 }),
      'expires now': await ours({ ...base, exp: nowS }),
      'expired a second ago': await ours({ ...base, exp: nowS - 1 }),
      'expires in a second': await ours({ ...base, exp: nowS + 1 }),
      'exp a fraction ahead': await ours({ ...base, exp: nowS + 0.5 }),
      'nbf now': await ours({ ...base, nbf: nowS }),
      'nbf in a second': await ours({ ...base, nbf: nowS + 1 }),
      'nbf a string': await ours({ ...base, nbf: String(nowS) }),
      'another key': await ours(base, 'another-key-another-key-another-key!!'),
      'payload changed': `${h}.${base64url.encode(JSON.stringify({ ...base, sub: '11111111-1111-1111-1111-111111111111' }))}.${s}`,
      'signature changed': `${h}.${p}.${flip(s)}`,
      'signature missing': `${h}.${p}.`,
      'signature of the wrong length': `${h}.${p}.${s}AA`,
      'two parts': `${h}.${p}`,
      'four parts': `${valid}.${s}`,
      'payload not JSON': await signedText('hello'),
      'payload an array': await signedText('[1,2]'),
      'payload null': await signedText('null'),
      'not a JWT': 'hello',
      empty: '',
    };
    for (const [name, token] of Object.entries(cases)) {
      expect(verifyAccessToken(keys, token, NOW), name).toBe(await joseSays(token, NOW));
    }
    expect(verifyAccessToken(keys, cases.valid!, NOW)).toBe(USER);
  });

  it('agrees with jose on the refresh call\'s tolerance for an expired token', async () => {
    const token = await issueAccessToken(keys, USER, NOW);
    const thirtyDays = 30 * 24 * 3600;
    for (const later of [0, 900, 901, thirtyDays, thirtyDays + 899, thirtyDays + 900, thirtyDays + 901]) {
      const at = new Date(NOW.getTime() + later * 1000);
      expect(verifyAccessToken(keys, token, at, thirtyDays), String(later)).toBe(await joseSays(token, at, thirtyDays));
      expect(verifyAccessToken(keys, token, at), `${later}, no tolerance`).toBe(await joseSays(token, at));
    }
  });

  it('refuses every header but ours and every other spelling of the signature, also ones jose would accept', async () => {
    const valid = await issueAccessToken(keys, USER, NOW);
    const [h, p, s] = valid.split('.') as [string, string, string];
    // 32 bytes are 43 characters: the last one carries 4 bits and 2 that must be zero.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s.at(-1)!);
    const sameBytes = `${h}.${p}.${s.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(sameBytes.split('.')[2]!, 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
    expect(verifyAccessToken(keys, `${h}.${p}.${s}=`, NOW), 'padded').toBeNull();
    expect(verifyAccessToken(keys, sameBytes, NOW), 'the same bytes spelled otherwise').toBeNull();
    expect(verifyAccessToken(keys, valid, NOW)).toBe(USER);

    const other = (header: Record<string, unknown>) => new SignJWT(base).setProtectedHeader(header as { alg: string }).sign(raw);
    const cases: Record<string, string> = {
      'no typ (jose accepts)': await other({ alg: 'HS256' }),
      'typ at (jose accepts)': await other({ alg: 'HS256', typ: 'at+jwt' }),
      'a kid (jose accepts)': await other({ alg: 'HS256', typ: 'JWT', kid: 'k1' }),
      'keys in the other order (jose accepts)': await other({ typ: 'JWT', alg: 'HS256' }),
      'HS512 with our key': await other({ alg: 'HS512', typ: 'JWT' }),
      'alg none': new UnsecuredJWT(base).encode(),
      'alg none, our header name kept': `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(JSON.stringify(base))}.`,
    };
    for (const [name, token] of Object.entries(cases)) expect(verifyAccessToken(keys, token, NOW), name).toBeNull();
  });
});
