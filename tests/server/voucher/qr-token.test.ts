import { describe, expect, it } from 'vitest';
import { QR_TOKEN_ALPHABET, QR_TOKEN_LENGTH } from '../../../contract/voucher.ts';
import { HttpError } from '../../../server/errors.ts';
import { newQrToken, normalizeQrToken, qrTokenHash } from '../../../server/voucher/qr.ts';

/**
 * The voucher QR token's pieces (server/voucher/qr.ts; decision 106): what a token is made of, how a
 * typed one is read, and the keyed hash that is all the database keeps. The calls themselves are in
 * tests/server/portal/till.test.ts.
 */
describe('the QR token', () => {
  it(`is ${QR_TOKEN_LENGTH} characters of A–Z and 2–9, every one of them used`, () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i += 1) {
      const token = newQrToken();
      expect(token).toMatch(/^[A-Z2-9]{10}$/);
      for (const c of token) seen.add(c);
    }
    expect([...seen].sort().join('')).toBe([...QR_TOKEN_ALPHABET].sort().join(''));
  });

  it('is read as typed: case, spaces and dashes do not matter; anything else is 400 VALIDATION_FAILED', () => {
    expect(normalizeQrToken(' abcde-23456 ')).toBe('ABCDE23456');
    expect(normalizeQrToken('ABCDE 23456')).toBe('ABCDE23456');
    for (const bad of ['ABCDE2345', 'ABCDE234567', 'ABCDE23450', 'ABCDE23451', 'ÅBCDE23456']) {
      const error = (() => {
        try {
          normalizeQrToken(bad);
          return null;
        } catch (e) {
          return e;
        }
      })();
      expect(error, bad).toBeInstanceOf(HttpError);
      expect((error as HttpError).code).toBe('VALIDATION_FAILED');
    }
  });

  it('is stored as an HMAC under the signing key: the same in every process with that key, another under another key, never the token', () => {
    const a = { tokenSigningKey: 'a'.repeat(64) };
    const b = { tokenSigningKey: 'b'.repeat(64) };
    const hash = qrTokenHash(a, 'ABCDE23456');
    expect(qrTokenHash({ ...a }, 'ABCDE23456')).toBe(hash);
    expect(qrTokenHash(b, 'ABCDE23456')).not.toBe(hash);
    expect(qrTokenHash(a, 'ABCDE23457')).not.toBe(hash);
    expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).not.toContain('ABCDE23456');
  });
});
