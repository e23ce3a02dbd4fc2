import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode } from '../../../contract/errors.ts';
import { HttpError } from '../../../server/errors.ts';
import { allMessageCodes, hasMessage, translate, type Catalogue } from '../../../server/i18n/index.ts';
import { registerServerMessages } from '../../../server/messages.ts';
import { SWISH_ERROR_CODES, paymentErrorMessageCode } from '../../../server/providers/payment/index.ts';

registerServerMessages();

/**
 * The API's error codes (contract/errors.ts) and the server's message catalogues are one list:
 * every code has a message in Swedish and English, and no catalogue holds a key outside the union.
 * The compiler checks the same (server/messages.ts, `satisfies Catalogue`); this catches a
 * catalogue registered some other way and shows the drift by name.
 */
describe('error codes and their messages', () => {
  it('has a Swedish and an English message for every code of the union', () => {
    const missing = ERROR_CODES.filter((code) => !hasMessage(code));
    expect(missing).toEqual([]);
    const fallback = translate('INTERNAL_ERROR', 'sv');
    for (const code of ERROR_CODES) {
      expect(translate(code, 'sv'), code).not.toBe('');
      expect(translate(code, 'en'), code).not.toBe('');
      if (code !== 'INTERNAL_ERROR') expect(translate(code, 'sv'), code).not.toBe(fallback);
    }
  });

  it('has no message for a code outside the union', () => {
    expect(allMessageCodes().filter((code) => !isErrorCode(code))).toEqual([]);
  });

  it('lists each code once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
  });

  it('types the codes built from Swish codes, each one in the union', () => {
    for (const swish of SWISH_ERROR_CODES) expect(isErrorCode(paymentErrorMessageCode(swish)), swish).toBe(true);
    expect(paymentErrorMessageCode('XX99')).toBe('PAYMENT_FAILED');
  });

  it('does not compile a code outside the union (checked by tsc)', () => {
    // @ts-expect-error: NOT_A_CODE is not an ErrorCode
    const stray = { NOT_A_CODE: { sv: 'x', en: 'x' } } satisfies Catalogue;
    // @ts-expect-error: an HttpError's code is an ErrorCode
    const error = new HttpError(400, 'NOT_A_CODE');
    expect(isErrorCode(Object.keys(stray)[0])).toBe(false);
    expect(isErrorCode(error.code)).toBe(false);
  });
});
