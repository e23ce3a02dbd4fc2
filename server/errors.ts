import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../contract/common.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { requestLanguage, translate, hasMessage } from './i18n/index.ts';

/**
 * The one error a route throws for a bad request: a status from API.md's catalogue and a code
 * from the message catalogue (server/i18n). The message is chosen in the caller's language when
 * the answer is written.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: ErrorCode = 'BAD_REQUEST', params?: Record<string, string | number>, details?: unknown) =>
  new HttpError(400, code, params, details);
export const unauthorized = (code: ErrorCode = 'UNAUTHORIZED') => new HttpError(401, code);
export const notFound = (code: ErrorCode = 'NOT_FOUND') => new HttpError(404, code);
export const conflict = (code: ErrorCode = 'CONFLICT', params?: Record<string, string | number>) => new HttpError(409, code, params);
export const tooManyRequests = (retryAfterSeconds: number, code: ErrorCode = 'RATE_LIMITED') =>
  new HttpError(429, code, { retryAfter: retryAfterSeconds }, undefined, { 'retry-after': String(retryAfterSeconds) });

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** Fastify's own errors for bad input, mapped to our codes. */
const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'INVALID_JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'EMPTY_BODY' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_VALIDATION: { status: 400, code: 'VALIDATION_FAILED' },
  FST_ERR_BAD_URL: { status: 400, code: 'BAD_REQUEST' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'BAD_REQUEST' },
  FST_ERR_NOT_FOUND: { status: 404, code: 'ROUTE_NOT_FOUND' },
  // A path parameter longer than routerOptions.maxParamLength (Fastify would answer 414).
  FST_ERR_MAX_PARAM_LENGTH: { status: 400, code: 'BAD_REQUEST' },
  // PostgreSQL SQLSTATE 22021: text with a NUL character (\u0000), which JSON and query strings
  // can carry but PostgreSQL text cannot. The statement fails before writing anything.
  '22021': { status: 400, code: 'BAD_REQUEST' },
};

/**
 * Errors the router raises before any route or error handler runs (a malformed %-escape in the
 * path, a path parameter over maxParamLength). Without this, Fastify answers them with its own
 * body (`{ error, code, message, statusCode }`, 414 for the long parameter), outside API.md's shape.
 * Passed to Fastify as `frameworkErrors` (server/app.ts).
 */
export function frameworkErrors(error: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const mapped = (error.code && FASTIFY_CODES[error.code]) || { status: 400, code: 'BAD_REQUEST' };
  reply.header('x-request-id', req.id);
  sendError(req, reply, mapped.status, mapped.code);
}

export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  params: Record<string, string | number> = {},
  details?: unknown,
): FastifyReply {
  const body: ErrorBody = { message: translate(code, requestLanguage(req), params), code };
  if (details !== undefined) body.details = details;
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** One problem in `details` of a 400 VALIDATION_FAILED: the field named, its value never echoed. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/** One schema issue, as Ajv (Fastify's validator) and TypeBox (server/validation.ts) both report it. */
export interface SchemaIssue {
  instancePath?: string;
  keyword?: string;
  params?: unknown;
}

/** `/a/0/b` under `body` → `body.a.0.b`; a missing property is named as the field itself. */
export function fieldProblem(issue: SchemaIssue, prefix: string): FieldProblem {
  let field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = (issue.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (issue.keyword === 'required' && missing) field = field ? `${field}.${missing}` : missing;
  return { field: field ? `${prefix}.${field}` : prefix, problem: issue.keyword ?? 'invalid' };
}

function validationDetails(error: FastifyError): FieldProblem[] {
  const ctx = (error as FastifyError & { validationContext?: string }).validationContext ?? 'body';
  return ((error.validation ?? []) as SchemaIssue[]).map((v) => fieldProblem(v, ctx));
}

/**
 * Requests Node's HTTP parser rejects before Fastify sees them (broken framing, bad header bytes,
 * headers too large, a request timeout): answered 400 BAD_REQUEST in the error shape (Swedish:
 * there is no Accept-Language to read), instead of Fastify's `{ error, message: "Client Error" }`.
 * Passed to Fastify as `clientErrorHandler` (server/app.ts).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify({ message: translate('BAD_REQUEST', 'sv'), code: 'BAD_REQUEST' });
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The first number in `value` that is not finite (Infinity from "1e309" or "Infinity"), as a
 * field path, or undefined. Ajv's type coercion turns such strings into Infinity and then skips
 * minimum/maximum for non-finite numbers, so `?limit=1e309` would pass `maximum: 100`.
 */
export function nonFiniteField(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : at;
  if (depth > 64 || value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = nonFiniteField(v, `${at}.${k}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** One error handler for the whole API: every failure leaves as the error body of API.md. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, req, reply) => {
    if (error instanceof HttpError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return sendError(req, reply, error.statusCode, error.code, error.params, error.details);
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      return sendError(req, reply, 400, 'VALIDATION_FAILED', {}, validationDetails(fe));
    }
    const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
    if (mapped) return sendError(req, reply, mapped.status, mapped.code);
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = STATUS_CODES[status] ?? 'BAD_REQUEST';
      return sendError(req, reply, STATUS_CODES[status] ? status : 400, code);
    }
    // Our fault: log it with the request id, tell the caller nothing about the insides.
    req.log.error({ err: error }, 'request failed');
    const known = STATUS_CODES[status];
    const code = known !== undefined && hasMessage(known) && status >= 500 ? known : 'INTERNAL_ERROR';
    return sendError(req, reply, status === 502 || status === 503 ? status : 500, code);
  });
}
