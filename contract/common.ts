import { Type, type Static } from 'typebox';

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
 * A UUID in its plain 8-4-4-4-12 form. The pattern matters: ajv-formats' `uuid` also accepts a
 * `urn:uuid:` prefix, which PostgreSQL's uuid type would refuse with an error instead of a 400.
 */
export const Uuid = Type.String({
  format: 'uuid',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'UUID',
});
export const IdParams = Type.Object({ id: Uuid });
export type IdParams = Static<typeof IdParams>;

/** ISO-8601 UTC timestamp. */
export const DateTime = Type.String({ format: 'date-time' });

/** Money in öre (SEK minor units): 14900 is 149,00 kr. */
export const Ore = Type.Integer({ minimum: 0, description: 'Amount in öre (SEK minor units)' });

/** Error answers a route may give, by status, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
