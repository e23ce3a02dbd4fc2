import { Type, type Static, type TSchema } from 'typebox';

/** The error body of every 4xx/5xx answer (API.md). */
export const ErrorBody = Type.Object(
  {
    message: Type.String({ description: "Human readable, in the request's Accept-Language (Swedish by default)" }),
    code: Type.String({ description: 'Machine-readable code, e.g. VALIDATION_FAILED' }),
    details: Type.Optional(Type.Unknown()),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/**
 * A UUID in its plain 8-4-4-4-12 form: the one pattern every check of an id uses. It matters:
 * ajv-formats' `uuid` also accepts a `urn:uuid:` prefix, which PostgreSQL's uuid type would refuse
 * with an error instead of a 400.
 */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID_RE = new RegExp(UUID_PATTERN);

/** True for a string in the plain UUID form (for ids that arrive outside a validated schema). */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * The `Idempotency-Key` header of a create or redeem (API.md; server/idempotency): 1–100
 * characters. A repeat with the same key by the same person within 24 hours answers the first
 * answer (status and body, with `Idempotent-Replayed: true`) and changes nothing more; the same key
 * with another body is 422 IDEMPOTENCY_KEY_REUSED; while the first is still running, a repeat waits
 * for its answer (409 IDEMPOTENCY_KEY_IN_PROGRESS after 10 s).
 */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Optional. A key the client makes for one intended request (a UUID, say) and sends again on a retry: within 24 hours the same ' +
        'key from the same person answers the first answer and changes nothing more; with a different body, 422 IDEMPOTENCY_KEY_REUSED.',
    }),
  ),
});

export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'UUID' });
export const IdParams = Type.Object({ id: Uuid });
export type IdParams = Static<typeof IdParams>;

/** ISO-8601 UTC timestamp. */
export const DateTime = Type.String({ format: 'date-time' });

/** Money in öre (SEK minor units): 14900 is 149,00 kr. */
export const Ore = Type.Integer({ minimum: 0, description: 'Amount in öre (SEK minor units)' });

/** What each error status means, as the OpenAPI document describes the answer. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: the input is invalid (details name the fields) or the request could not be read',
  401: 'Not signed in, or the token is invalid or expired',
  403: 'Forbidden',
  404: 'Not found (or not yours)',
  409: 'Conflict with the current state',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'The Idempotency-Key was used before for a different request (IDEMPOTENCY_KEY_REUSED)',
  429: 'Too many requests: wait Retry-After seconds',
  500: 'Internal error',
  502: 'A provider refused the request',
  503: 'A provider or the database is unavailable',
};

/**
 * Error answers a route may give, by status, each a reference to the one shared ErrorBody schema
 * (server/app.ts adds it, so the OpenAPI document has one ErrorBody component). Typed as ErrorBody
 * itself, not as an unresolved reference, so a handler's answers stay type-checked.
 */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(
    statuses.map((s) => [s, Type.Ref('ErrorBody', { description: ERROR_DESCRIPTIONS[s] ?? 'Error' }) as unknown as typeof ErrorBody]),
  );
}

// ---- Response headers (the OpenAPI document declares them; @fastify/swagger reads `headers`) ----

/** On every 429 (server/openapi.ts adds it to each). */
export const RetryAfter = Type.Integer({ minimum: 1, description: 'Seconds to wait before trying again' });

/** The list endpoints' paging (keyset): present only when another page follows. */
export const LinkNext = Type.String({
  description: 'The next page, when there is one: `</api/…?limit=…&cursor=…>; rel="next"` (RFC 8288)',
});

/** The catalogue's validator for If-None-Match (a strong ETag). */
export const ETagHeader = Type.String({ description: 'Send it back in If-None-Match: an unchanged answer is 304' });

/**
 * A route's answer with what the document says about it besides the body: its description and its
 * response headers. The schema is the same shape (a named one stays named: its `$id` is kept, and
 * the document refers to its component); Fastify's serializer ignores both keywords.
 */
export function answer<T extends TSchema>(schema: T, extra: { description?: string; headers?: Record<string, TSchema> }): T {
  return { ...schema, ...extra };
}
