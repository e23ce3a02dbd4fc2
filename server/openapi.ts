import type { FastifyPluginAsync, FastifySchema } from 'fastify';
import type { TSchema } from 'typebox';
import { COMPONENTS, TAGS } from '../contract/components.ts';
import { ErrorBody, errorResponses, RetryAfter } from '../contract/common.ts';

/**
 * How the route schemas of contract/ become /api/openapi.json (decision 007). Fastify validates
 * and serializes with the route schemas as they are; this only shapes what the document says, by
 * rules that hold for every route, so no route repeats them:
 * - a named shape (contract/components.ts: its `title` is its name) is a reference to its
 *   component wherever it occurs, in answers, bodies and parameters, never written out inline:
 *   one named type per shape in a generated client;
 * - every 429 carries its `Retry-After` header; every operation that takes a body declares 413
 *   (Fastify refuses a body over the limit with the error body before any route runs);
 * - a multipart body is an object (the route reads the parts itself, so at run time the
 *   validator sees no parsed body and the contract's schema lets null through);
 * - the sandbox's operations are marked `x-internal` (they exist only while SANDBOX is on).
 */

interface RouteSchema {
  body?: unknown;
  response?: Record<string, unknown>;
  [key: string]: unknown;
}

type Schema = Record<string, unknown> & { title?: string; headers?: Record<string, unknown>; description?: string; content?: Record<string, { schema?: Schema }> };

/** The names of the named shapes: a schema whose `title` is one of these is that shape. */
const NAMED = new Set([...COMPONENTS, ErrorBody].map((s) => nameOf(s)));

function nameOf(schema: TSchema): string {
  const title = (schema as { title?: unknown }).title;
  if (typeof title !== 'string') throw new Error('Every schema of contract/components.ts has a title (its name)');
  return title;
}

/**
 * The schema with every named shape inside it (not the schema itself) replaced by a reference to
 * its component. By `title`, not `$id`: a shape that occurs twice in one answer (an enum in
 * Greetie's gifts and vouchers, Greetie in the account export) cannot carry an `$id` there, as
 * the serializer refuses two schemas of one id; its title it can carry.
 */
export function refsInside(schema: unknown, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => refsInside(s, false));
  if (schema === null || typeof schema !== 'object') return schema;
  const title = (schema as { title?: unknown }).title;
  if (!root && typeof title === 'string' && NAMED.has(title)) return { $ref: title };
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, refsInside(value, false)]));
}

function namedAnswer(answer: Schema): Schema {
  if (typeof answer.title !== 'string' || !NAMED.has(answer.title)) {
    const out = refsInside(answer) as Schema;
    const items = (answer.items as { title?: unknown } | undefined)?.title;
    if (out.description === undefined && typeof items === 'string' && NAMED.has(items)) out.description = `A list of ${items}`;
    return out;
  }
  const out: Schema = { $ref: answer.title };
  out.description = answer.description ?? answer.title;
  if (answer.headers !== undefined) out.headers = answer.headers;
  return out;
}

function objectBody(body: Schema): Schema {
  if (!body.content) return body;
  const content = Object.fromEntries(
    Object.entries(body.content).map(([type, media]) => {
      const schema = media.schema;
      if (type !== 'multipart/form-data' || !schema || !Array.isArray(schema.type)) return [type, media];
      return [type, { ...media, schema: { ...schema, type: 'object' } }];
    }),
  );
  return { ...body, content };
}

export function transformRoute({ schema: given, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  const schema = given as RouteSchema | undefined;
  if (!schema || schema.hide) return { schema: given, url };
  const out: RouteSchema = { ...schema };
  if (schema.response) {
    const response: Record<string, unknown> = {};
    for (const [status, raw] of Object.entries(schema.response)) {
      let answer = namedAnswer(raw as Schema);
      if (status === '429' && !answer.headers) answer = { ...answer, headers: { 'Retry-After': RetryAfter } };
      response[status] = answer;
    }
    if (schema.body !== undefined && response['413'] === undefined) Object.assign(response, errorResponses(413));
    out.response = response;
  }
  if (schema.body !== undefined) out.body = refsInside(objectBody(schema.body as Schema));
  for (const part of ['querystring', 'params', 'headers'] as const) if (schema[part] !== undefined) out[part] = refsInside(schema[part]);
  if (url === '/api/sandbox' || url.startsWith('/api/sandbox/')) out['x-internal'] = true;
  return { schema: out, url };
}

/**
 * The named shapes, added where only @fastify/swagger reads them: an encapsulated plugin with no
 * routes, so the validators and serializers of the real routes keep the schemas they have (which
 * embed these shapes; Fastify would refuse a second schema of the same `$id` beside them).
 */
export const openapiComponents: FastifyPluginAsync = async (scope) => {
  for (const schema of COMPONENTS) scope.addSchema({ ...(refsInside(schema) as object), $id: nameOf(schema) });
};

export { TAGS };
