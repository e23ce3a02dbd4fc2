import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

/**
 * Secrets of sign-in. Access tokens are JWTs signed with HS256 (the only algorithm accepted, so
 * `alg: none` and key-confusion tricks are refused) and carry issuer and audience, both checked.
 * Verification tokens and refresh tokens are opaque random strings stored only as SHA-256 hashes;
 * codes are stored as an HMAC keyed with a pepper derived from the signing key, so a copy of the
 * database alone does not let anyone try the million codes offline.
 */
export const ISSUER = 'greetie';
export const AUDIENCE = 'greetie-api';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CODE_TTL_MS = 5 * 60 * 1000;
const ALGORITHMS = ['HS256'];

export interface TokenKeys {
  jwt: Uint8Array;
  codePepper: Buffer;
}

export function deriveKeys(tokenSigningKey: string): TokenKeys {
  return {
    jwt: new TextEncoder().encode(tokenSigningKey),
    codePepper: createHmac('sha256', tokenSigningKey).update('greetie/verification-code-pepper/v1').digest(),
  };
}

const keysCache = new WeakMap<object, TokenKeys>();

/** The keys of one configuration's signing key, derived once per configuration. */
export function keysFor(config: { tokenSigningKey: string }): TokenKeys {
  let keys = keysCache.get(config);
  if (!keys) {
    keys = deriveKeys(config.tokenSigningKey);
    keysCache.set(config, keys);
  }
  return keys;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export async function issueAccessToken(keys: TokenKeys, userId: string, now: Date): Promise<string> {
  const iat = seconds(now);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(keys.jwt);
}

/**
 * The user id of a valid access token, or null for anything else (expired, forged, wrong
 * algorithm, wrong issuer or audience, not a JWT at all). `acceptExpiredFor` lets the refresh
 * call accept a token that expired at most that many seconds ago.
 */
export async function verifyAccessToken(
  keys: TokenKeys,
  token: string,
  now: Date,
  acceptExpiredFor = 0,
): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, keys.jwt, {
      algorithms: ALGORITHMS,
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat'],
      ...(acceptExpiredFor > 0 ? { clockTolerance: acceptExpiredFor } : {}),
    });
    return typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null;
  } catch {
    return null;
  }
}

/** 256 bits from the CSPRNG, URL-safe. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Six digits, uniformly from the CSPRNG (leading zeros kept). */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The code's hash is bound to its verification (by the token's hash), so hashes are not reusable. */
export function codeHash(keys: TokenKeys, tokenHash: string, code: string): string {
  return createHmac('sha256', keys.codePepper).update(`${tokenHash}:${code}`).digest('hex');
}
