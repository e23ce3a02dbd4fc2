import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Media addresses (decision 071). Every stored file has an unguessable key: 128 random bits in
 * base64url, plus its extension. Once a greetie has left draft, the key alone serves its files
 * (the recipient's link, link previews, mail clients). While it is a draft, its files are served
 * only with a signature that the server gives its sender in answers about the draft: `exp` (Unix
 * seconds) and `sig` = HMAC-SHA256(key derived from the token-signing key, `${storageKey}.${exp}`).
 * Media elements cannot send the Bearer header, and a signature in the URL is what they can carry.
 */

export function newStorageKey(ext: string): string {
  return `${randomBytes(16).toString('base64url')}.${ext}`;
}

/** Draft URLs stay the same for a window, so the browser's cache keeps working while composing. */
const WINDOW_S = 6 * 3600;
/** A draft URL works for at least this long after it was given out (a day's composing, a reload). */
const VALID_S = 24 * 3600;

function hmacKey(tokenSigningKey: string): Buffer {
  return createHmac('sha256', tokenSigningKey).update('greetie media url v1').digest();
}

function signature(tokenSigningKey: string, storageKey: string, exp: number): string {
  return createHmac('sha256', hmacKey(tokenSigningKey)).update(`${storageKey}.${exp}`).digest('base64url');
}

export function mediaPath(storageKey: string): string {
  return `/api/media/${storageKey}`;
}

/** The URL of a stored file: signed while its greetie is a draft, the key alone after. */
export function mediaUrl(tokenSigningKey: string, storageKey: string, opts: { draft: boolean; now: Date }): string {
  if (!opts.draft) return mediaPath(storageKey);
  const nowS = Math.floor(opts.now.getTime() / 1000);
  const exp = (Math.floor(nowS / WINDOW_S) + 1) * WINDOW_S + VALID_S;
  return `${mediaPath(storageKey)}?exp=${exp}&sig=${signature(tokenSigningKey, storageKey, exp)}`;
}

/** True when `sig` is the server's signature of the key and `exp`, and `exp` has not passed. */
export function validSignature(tokenSigningKey: string, storageKey: string, exp: number | undefined, sig: string | undefined, now: Date): boolean {
  if (exp === undefined || sig === undefined) return false;
  if (exp * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(signature(tokenSigningKey, storageKey, exp));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
