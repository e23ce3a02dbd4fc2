/**
 * Every machine-readable error code the API answers with (ErrorBody.code), one union shared by the
 * server (HttpError), the client's failure type and the pages. A code the server can send is here
 * and has a message in the server's catalogue.
 */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'EMPTY_BODY',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'GONE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'BAD_GATEWAY',
  'SERVICE_UNAVAILABLE',
  'DB_UNAVAILABLE',
  'INVALID_MOBILE_NUMBER',
  'CODE_RATE_LIMITED_NUMBER',
  'CODE_RATE_LIMITED_IP',
  'LOGIN_RATE_LIMITED',
  'WRONG_CODE',
  'CODE_VOIDED',
  'VERIFICATION_INVALID',
  'INVALID_TOKEN',
  'REFRESH_TOKEN_INVALID',
  'REFRESH_TOKEN_REUSED',
  'REFRESH_TOKEN_MISSING',
  'CROSS_SITE_REQUEST',
  'SMS_UNAVAILABLE',
  'SMS_REJECTED',
  'MERCHANT_NOT_FOUND',
  'PRODUCT_NOT_FOUND',
  'INVALID_CURSOR',
  'PRODUCT_PRICE_OR_RANGE',
  'PRODUCT_RANGE_ORDER',
  'PRODUCT_SOURCE_NOT_OFFERED',
  'MERCHANT_SOURCE_IN_USE',
  'GREETIE_NOT_FOUND',
  'GREETIE_NOT_DRAFT',
  'GREETIE_NOT_DELETABLE',
  'GREETIE_HAS_GIFTS',
  'GREETIE_NO_RECIPIENT',
  'SENDER_NAME_REQUIRED',
  'GIFT_PRODUCT_UNAVAILABLE',
  'GIFT_AMOUNT_REQUIRED',
  'GIFT_AMOUNT_OUT_OF_RANGE',
  'GIFT_AMOUNT_FIXED',
  'GIFT_TOTAL_TOO_LARGE',
  'DELIVER_AT_PAST',
  'DELIVER_AT_TOO_FAR',
  'CONTENT_EMOJI_INVALID',
  'CONTENT_PICTURE_UNKNOWN',
  'TEXT_INVALID_CHARACTERS',
  'MEDIA_NOT_MULTIPART',
  'MEDIA_FILE_MISSING',
  'MEDIA_UNEXPECTED_PART',
  'MEDIA_TYPE_NOT_ALLOWED',
  'OVERLAY_TYPE_NOT_ALLOWED',
  'PICTURE_TYPE_NOT_ALLOWED',
  'POSTER_TYPE_NOT_ALLOWED',
  'PHOTO_TOO_LARGE',
  'VIDEO_TOO_LARGE',
  'OVERLAY_TOO_LARGE',
  'POSTER_TOO_LARGE',
  'VIDEO_TOO_LONG',
  'VIDEO_LENGTH_MISMATCH',
  'MEDIA_UNREADABLE',
  'MEDIA_TOO_MANY_PIXELS',
  'RANGE_NOT_SATISFIABLE',
  'NAME_EMPTY',
  'NAME_TOO_LONG',
  'NAME_INVALID_CHARACTERS',
  'NAME_HAS_LINK',
  'NAME_HAS_PHONE_NUMBER',
  'ACCOUNT_PAYMENT_PENDING',
  'PAYMENT_FAILED',
  'PAYMENT_UNAVAILABLE',
  'PAYMENT_REJECTED',
  'PAYMENT_FF08',
  'PAYMENT_RP01',
  'PAYMENT_RP02',
  'PAYMENT_RP03',
  'PAYMENT_RP04',
  'PAYMENT_RP06',
  'PAYMENT_RP08',
  'PAYMENT_RP09',
  'PAYMENT_ACMT01',
  'PAYMENT_ACMT03',
  'PAYMENT_ACMT07',
  'PAYMENT_AM02',
  'PAYMENT_AM03',
  'PAYMENT_AM06',
  'PAYMENT_AM21',
  'PAYMENT_BE18',
  'PAYMENT_PA02',
  'PAYMENT_RF07',
  'PAYMENT_BANKIDCL',
  'PAYMENT_BANKIDONGOING',
  'PAYMENT_BANKIDUNKN',
  'PAYMENT_TM01',
  'PAYMENT_DS24',
  'PAYMENT_VR01',
  'PAYMENT_VR02',
  'PAYMENT_RF02',
  'PAYMENT_RF03',
  'PAYMENT_RF08',
  'PAYMENT_AM04',
  'PAYMENT_NOT_FOUND',
  'GREETIE_NO_GIFTS',
  'GREETIE_NOT_PAYABLE',
  'GIFT_CODE_POOL_EMPTY',
  'CONSENT_REQUIRED',
  'PAYMENT_BUSY',
  'PAYMENT_NOT_PENDING',
  'PAYMENT_STREAMS_LIMIT',
  'PAYMENT_PENDING',
  'PAYMENT_SANDBOX_ONLY',
  'GREETIE_ALREADY_OPENED',
  'GREETIE_NOT_CANCELLABLE',
  'REFUND_NOT_FOUND',
  'REFUND_NOT_PENDING',
  'PRODUCT_NOT_CODE',
  'CODES_INVALID',
  'SEND_LIMIT_PER_DAY',
  'SEND_LIMIT_PER_RECIPIENT',
  'VOUCHER_NOT_FOUND',
  'MERCHANT_CODE_REQUIRED',
  'MERCHANT_CODE_WRONG',
  'VOUCHER_ALREADY_REDEEMED',
  'VOUCHER_EXPIRED',
  'VOUCHER_LOCKED',
  'VOUCHER_NEEDS_MERCHANT_CODE',
  'AMOUNT_NOT_ALLOWED',
  'VOUCHER_BALANCE_TOO_LOW',
  'REDEMPTION_NOT_FOUND',
  'UNDO_TOO_LATE',
  'ALREADY_UNDONE',
  'DONATION_NOT_IN_STORE',
  'DONATION_VOUCHER_USED',
  'DONATION_VOUCHER_EXPIRED',
  'DONATION_PRODUCT_NOT_CHARITY',
  'DONATION_AMOUNT_NOT_ACCEPTED',
  'EXPO_TOKEN_INVALID',
  'DEVICE_ID_INVALID',
  'WEBPUSH_SUBSCRIPTION_INVALID',
  'WEBPUSH_ENDPOINT_REFUSED',
  'WEBPUSH_OFF',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'RECIPIENT_CHANGE_LIMIT',
  'RECIPIENT_CHANGE_NOT_ALLOWED',
  'RECIPIENT_UNCHANGED',
  'RESEND_NOT_ALLOWED',
  'RESEND_LIMIT',
  'THANKS_ALREADY_SENT',
  'THANKS_MESSAGE_EMPTY',
  'THANKS_EMOJI_INVALID',
  'OWNER_ONLY',
  'PERIOD_INVALID',
  'STAFF_NOT_FOUND',
  'VOUCHER_NOT_IN_STORE',
  'TOKEN_NOT_FOUND',
  'TOKEN_EXPIRED',
  'TOKEN_LOCKED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN = new Set<string>(ERROR_CODES);

/** True when `code` is one of the API's codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}

/**
 * The codes of the checks the phone makes before it sends anything (never an answer of the API):
 * a merchant code that cannot be one, a sign-in code that is not six digits, the till's amount
 * for a value voucher missing, not kronor, 0, or more than the balance the page has (the server's
 * VOUCHER_BALANCE_TOO_LOW is another refusal: the balance changed meanwhile). Where the server has
 * a code for the same refusal (MERCHANT_CODE_REQUIRED, INVALID_MOBILE_NUMBER, the name rule's),
 * the phone uses that one instead.
 */
export const CHECK_CODES = [
  'MERCHANT_CODE_MALFORMED',
  'INVALID_CODE',
  'AMOUNT_REQUIRED',
  'AMOUNT_MALFORMED',
  'AMOUNT_TOO_SMALL',
  'AMOUNT_OVER_BALANCE',
  // Till mode: no token typed, or one that cannot be a voucher's QR token (10 of A–Z and 2–9).
  'TOKEN_REQUIRED',
  'TOKEN_MALFORMED',
] as const;

export type CheckCode = (typeof CHECK_CODES)[number];

/**
 * The one failure every flow's machine sees, whatever went wrong: an API answer, no answer at all
 * (status 0, code NETWORK) or a check made on the phone (status 0, its own code). The actor
 * implementations make it once (src/api/errors.ts `toFailure`); machines read `code`, never a
 * status.
 */
export interface Failure {
  /** The HTTP status, or 0 when no answer came. */
  status: number;
  /**
   * The API's code; a check's code (status 0); NETWORK when no answer came; UNKNOWN when the
   * answer carried none we know.
   */
  code: ErrorCode | CheckCode | 'NETWORK' | 'UNKNOWN';
  /** What to show a person, in their language; empty for a check (the page words it by its code). */
  message: string;
  /** When asking again may succeed (ISO-8601, from Retry-After), else null. */
  retryAt: string | null;
}
