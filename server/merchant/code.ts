import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Merchant codes (what till staff type to redeem a voucher) are stored only as scrypt hashes with
 * a per-merchant salt: `scrypt$N$r$p$<salt b64url>$<hash b64url>`. The format carries its cost, so
 * the cost can rise later without breaking stored hashes.
 */

const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password, salt, KEY_LENGTH, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Case and surrounding spaces do not matter to a person typing a code at a till. */
export function normalizeMerchantCode(code: string): string {
  return code.trim().toUpperCase();
}

export async function hashMerchantCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(normalizeMerchantCode(code), salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * True when `code` is the merchant code behind `stored`. Constant-time in the hash comparison;
 * a malformed stored value is simply "no match". For the redeem feature.
 */
export async function verifyMerchantCode(code: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every((v) => Number.isInteger(v) && v > 0)) return false;
  const expected = Buffer.from(hashText, 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await scrypt(normalizeMerchantCode(code), Buffer.from(saltText, 'base64url'), { N, r: R, p: P });
  return timingSafeEqual(actual, expected);
}

/**
 * A per-process memory of checks already made (decision 034): the key is a SHA-256 of the stored
 * hash and the typed code, so no code is kept in the clear and a replaced code (a new stored
 * hash) is never answered from memory. Only matches are kept once settled: a merchant has one
 * code, so the right answers are bounded by the merchants (and their past codes), while wrong
 * guesses, which anybody can vary endlessly, are not remembered. A check still running is shared
 * by everyone asking the same question, so a burst of redeems at one merchant costs one scrypt.
 * The cost of a wrong code stays scrypt's; the redeem's attempt limit (5 per voucher per 15
 * minutes) is what keeps guessing out.
 */
const MATCHES_MAX = 10_000;
const known = new Map<string, Promise<boolean>>();
/** The keys of `known` whose check has settled as a match (answered without waiting), with what they matched. */
const matched = new Map<string, { digest: string; stored: string }>();
/**
 * The same matches by code: a digest of the typed code → the stored hashes it matched. A redeem
 * with a code found here is tried at once against those hashes (the statement requires the
 * voucher's merchant's hash to be one of them), before anything is read.
 */
const hashesByCode = new Map<string, Set<string>>();

function codeDigest(code: string): string {
  return createHash('sha256').update(normalizeMerchantCode(code)).digest('base64url');
}

function checkKey(code: string, stored: string): string {
  return createHash('sha256').update(stored).update('\u0000').update(normalizeMerchantCode(code)).digest('base64url');
}

function remember(key: string, code: string, stored: string): void {
  const digest = codeDigest(code);
  matched.set(key, { digest, stored });
  const hashes = hashesByCode.get(digest) ?? new Set<string>();
  hashes.add(stored);
  hashesByCode.set(digest, hashes);
  if (known.size > MATCHES_MAX) {
    const oldest = known.keys().next().value!;
    known.delete(oldest);
    const gone = matched.get(oldest);
    matched.delete(oldest);
    if (gone) {
      const left = hashesByCode.get(gone.digest);
      left?.delete(gone.stored);
      if (left?.size === 0) hashesByCode.delete(gone.digest);
    }
  }
}

export function verifyMerchantCodeRemembered(code: string, stored: string): Promise<boolean> {
  const key = checkKey(code, stored);
  const hit = known.get(key);
  if (hit) return hit;
  const check = verifyMerchantCode(code, stored).then(
    (ok) => {
      if (!ok) known.delete(key);
      else remember(key, code, stored);
      return ok;
    },
    (err: unknown) => {
      known.delete(key);
      throw err;
    },
  );
  known.set(key, check);
  return check;
}

/**
 * The stored hashes this process has found `code` to match (no scrypt, no waiting): empty when
 * none. A code right for one merchant is in the list for that merchant's hash only, so the redeem
 * statement that requires the voucher's merchant's hash to be among them redeems nothing with it
 * elsewhere.
 */
export function knownMerchantCodeHashes(code: string): string[] {
  const hashes = hashesByCode.get(codeDigest(code));
  return hashes ? [...hashes] : [];
}

/**
 * True when this process has already found `code` to be the code behind `stored` (no scrypt, no
 * waiting). False says nothing: not checked yet, still checking, or wrong.
 */
export function isKnownMerchantCode(code: string, stored: string): boolean {
  return matched.has(checkKey(code, stored));
}

/**
 * The check of `code` against `stored` that is running now (started by somebody else's redeem),
 * or undefined. Waiting for it costs nothing and checks nothing new.
 */
export function runningMerchantCodeCheck(code: string, stored: string): Promise<boolean> | undefined {
  const key = checkKey(code, stored);
  return matched.has(key) ? undefined : known.get(key);
}
