import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * Secrets of sign-in. Access tokens are JWTs signed with HS256 (the only algorithm accepted, so
 * `alg: none` and key-confusion tricks are refused) and carry issuer and audience, both checked.
 * jose signs them; they are verified here, synchronously (decision 093).
 * Verification tokens and refresh tokens are opaque random strings stored only as SHA-256 hashes;
 * codes are stored as an HMAC keyed with a pepper derived from the signing key, so a copy of the
 * database alone does not let anyone try the million codes offline.
 */
export const ISSUER = 'greetie';
export const AUDIENCE = 'greetie-api';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const CODE_TTL_MS = 5 * 60 * 1000;
/** The protected header of every access token: the bytes SignJWT writes for it (a test checks). */
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;
export const ACCESS_TOKEN_HEADER = Buffer.from(JSON.stringify(HEADER)).toString('base64url');

export interface TokenKeys {
  /**
   * The HS256 key as a WebCrypto key, imported once per configuration. Given raw bytes, jose
   * imports them again on every sign and verify (crypto.subtle.importKey, about 20 µs of CPU per
   * request; decision 093).
   */
  jwt: Promise<CryptoKey>;
  /** The same key's bytes, for verifying with node:crypto's HMAC. */
  jwtSecret: Buffer;
  codePepper: Buffer;
}

export function deriveKeys(tokenSigningKey: string): TokenKeys {
  const jwt = crypto.subtle.importKey('raw', new TextEncoder().encode(tokenSigningKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // A key that cannot be imported fails the first sign or verify, not the process.
  jwt.catch(() => {});
  return {
    jwt,
    jwtSecret: Buffer.from(tokenSigningKey, 'utf8'),
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
    .setProtectedHeader(HEADER)
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(await keys.jwt);
}

/**
 * The user id of a valid access token, or null for anything else (expired, forged, wrong
 * algorithm, wrong issuer or audience, not a JWT at all). `acceptExpiredFor` lets the refresh
 * call accept a token that expired at most that many seconds ago.
 *
 * Only the tokens this server issues pass: the header must be exactly ours (so `alg: none`,
 * HS384/512, `crit`, `b64`, embedded keys are all refused before anything else), the signature
 * exactly the base64url of HS256 over the first two parts with our key (compared in constant
 * time), then the claims as jose checks them: `iss`, `aud`, `sub`, `exp` and `iat` required,
 * `exp` and `nbf` against `now` (whole seconds). Synchronous, with node:crypto: jose 6 verifies
 * through WebCrypto, a promise and a thread-pool job per token, which cost 25–45 µs of CPU per
 * request for an HMAC of 5 µs (decision 093). tests/server/auth/verify.test.ts holds it to jose's
 * answers, token by token.
 */
export function verifyAccessToken(keys: TokenKeys, token: string, now: Date, acceptExpiredFor = 0): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== ACCESS_TOKEN_HEADER) return null;
  const expected = Buffer.from(createHmac('sha256', keys.jwtSecret).update(`${parts[0]}.${parts[1]}`).digest('base64url'));
  const given = Buffer.from(parts[2]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return null;
  const { sub, iss, aud, exp, iat, nbf } = claims as Record<string, unknown>;
  const nowS = seconds(now);
  if (iss !== ISSUER) return null;
  if (aud !== AUDIENCE && !(Array.isArray(aud) && aud.includes(AUDIENCE))) return null;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= nowS - acceptExpiredFor) return null;
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowS + acceptExpiredFor)) return null;
  return typeof sub === 'string' && sub !== '' ? sub : null;
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
