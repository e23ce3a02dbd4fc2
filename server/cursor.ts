import { isUuid } from '../contract/common.ts';

/**
 * Keyset cursors of the list endpoints (GET /greetie, GET /merchant/v2): opaque to clients,
 * base64url of the JSON pair `[sort key, id]` of a page's last row. Each list says what a valid
 * sort key is and which error a bad cursor answers.
 */

export function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id]), 'utf8').toString('base64url');
}

/** The cursor's sort key and id, or undefined when it is not one this list could have given. */
export function decodeCursor(cursor: string, validKey: (key: string) => boolean): { key: string; id: string } | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [key, id] = value as unknown[];
  if (typeof key !== 'string' || !validKey(key) || typeof id !== 'string' || !isUuid(id)) return undefined;
  return { key, id };
}
