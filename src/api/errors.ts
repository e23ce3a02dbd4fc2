import type { ErrorBody } from '../../contract/common.ts';
import { isErrorCode, type Failure } from '../../contract/errors.ts';
import sv from '../../locales/sv/api.json';
import en from '../../locales/en/api.json';
import type { Language } from '../format/language.ts';

export type ApiLanguage = Language;

const catalogue: Record<ApiLanguage, Record<string, string>> = { sv: sv.errors, en: en.errors };

/** The longest piece of a response body shown inside the generic message. */
const MAX_BODY_IN_MESSAGE = 200;

function bodyText(body: unknown): string {
  if (body === undefined || body === null || body === '') return '';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > MAX_BODY_IN_MESSAGE ? `${text.slice(0, MAX_BODY_IN_MESSAGE)}…` : text;
}

/**
 * The default message for a failed call, in Swedish or English. Status 0 means the request never
 * got an answer (offline, DNS, CORS).
 */
export function defaultErrorMessage(
  status: number,
  statusText: string,
  body: unknown,
  language: ApiLanguage = 'sv',
): string {
  const messages = catalogue[language] ?? catalogue.sv;
  if (status === 0) return messages.network!;
  const known = messages[String(status)];
  if (known) return known;
  return messages
    .generic!.replace('{{status}}', String(status))
    .replace('{{statusText}}', statusText)
    .replace('{{body}}', bodyText(body))
    .trim();
}

function isErrorBody(body: unknown): body is ErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string' &&
    (body as { message: string }).message.trim() !== ''
  );
}

/**
 * A failed API call. `message` is our default message for the status (in the caller's language);
 * `userMessage` is what to show a person: the server's own `message` when it sent one (already in
 * the request's Accept-Language), otherwise the default.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly url: string;
  readonly status: number;
  readonly statusText: string;
  readonly body: unknown;
  /** The server's machine code (e.g. VALIDATION_FAILED) when the body has one. */
  readonly code: string | undefined;
  /** Seconds to wait before asking again, from a 429's or 503's `Retry-After` header (delay-seconds form). */
  readonly retryAfter: number | undefined;

  constructor(init: { url: string; status: number; statusText: string; body: unknown; language?: ApiLanguage; retryAfter?: number }) {
    super(defaultErrorMessage(init.status, init.statusText, init.body, init.language));
    this.url = init.url;
    this.status = init.status;
    this.statusText = init.statusText;
    this.body = init.body;
    this.code = isErrorBody(init.body) && typeof init.body.code === 'string' ? init.body.code : undefined;
    this.retryAfter = init.retryAfter;
  }

  /** The server's message when present, else the default message. */
  get userMessage(): string {
    return isErrorBody(this.body) ? this.body.message : this.message;
  }
}

/** `Retry-After` in its delay-seconds form ("120"); an HTTP date or anything else is undefined. */
export function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header.trim());
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/**
 * Whatever a call rejected with, as the one failure machines see (contract/errors.ts). An ApiError
 * keeps its status, code, person-facing message and Retry-After (as a time); anything else (a bug,
 * a check that threw) is status 0 with code UNKNOWN and its own message. A value that already is a
 * Failure passes through unchanged, so mapping twice is harmless.
 */
export function toFailure(error: unknown, now: () => number = Date.now): Failure {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      code: error.status === 0 ? 'NETWORK' : isErrorCode(error.code) ? error.code : 'UNKNOWN',
      message: error.userMessage,
      retryAt: error.retryAfter === undefined ? null : new Date(now() + error.retryAfter * 1000).toISOString(),
    };
  }
  if (isFailure(error)) return error;
  const message = error instanceof Error && error.message ? error.message : String(error);
  return { status: 0, code: 'UNKNOWN', message, retryAt: null };
}

function isFailure(value: unknown): value is Failure {
  const v = value as Partial<Failure> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.status === 'number' && typeof v.code === 'string' &&
    typeof v.message === 'string' && (v.retryAt === null || typeof v.retryAt === 'string')
  );
}
