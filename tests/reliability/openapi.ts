import type { Access } from '../../server/access.ts';

/** What the suite needs to know about one operation of /api/openapi.json. */
export interface Operation {
  /** "GET /api/merchant/{id}", the way failures and fixtures name it. */
  key: string;
  method: string;
  /** The path template as published, e.g. /api/merchant/{id}. */
  path: string;
  pathParams: ParamSpec[];
  queryParams: ParamSpec[];
  headerParams: ParamSpec[];
  /** The JSON body schema, when the operation takes a body. */
  body: JsonSchema | undefined;
  bodyRequired: boolean;
  /** Content types the operation declares for its body. */
  bodyContentTypes: string[];
  access: Access | undefined;
}

export interface ParamSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  $ref?: string;
  [k: string]: unknown;
};

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  'x-access'?: Access;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Resolve local $refs (#/components/schemas/X) so generators see plain schemas. */
function deref(doc: OpenApiDocument, schema: JsonSchema | undefined, depth = 0): JsonSchema {
  if (!schema || depth > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return deref(doc, doc.components?.schemas?.[name], depth + 1);
  }
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, deref(doc, v, depth + 1)]));
  }
  if (schema.items) out.items = deref(doc, schema.items, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key];
    if (list) out[key] = list.map((s) => deref(doc, s, depth + 1));
  }
  return out;
}

export function operationsOf(doc: unknown): Operation[] {
  const d = doc as OpenApiDocument;
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(d.paths ?? {})) {
    for (const [m, op] of Object.entries(item)) {
      if (!METHODS.includes(m)) continue;
      const params = (op.parameters ?? []).map((p) => ({ in: p.in, spec: { name: p.name, required: p.required === true, schema: deref(d, p.schema) } }));
      const content = op.requestBody?.content ?? {};
      const jsonType = Object.keys(content).find((t) => t.includes('json'));
      const method = m.toUpperCase();
      ops.push({
        key: `${method} ${path}`,
        method,
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.spec),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.spec),
        headerParams: params.filter((p) => p.in === 'header').map((p) => p.spec),
        body: jsonType ? deref(d, content[jsonType]?.schema) : undefined,
        bodyRequired: op.requestBody?.required === true,
        bodyContentTypes: Object.keys(content),
        access: op['x-access'],
      });
    }
  }
  return ops.sort((a, b) => a.key.localeCompare(b.key));
}

/** encodeURIComponent that never throws: lone surrogates become U+FFFD first. */
export function enc(s: string): string {
  return encodeURIComponent(s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/** Fill a path template: /api/merchant/{id} with { id: 'x' } → /api/merchant/x (values encoded). */
export function fillPath(template: string, values: Record<string, string>, encode = true): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = values[name] ?? '';
    return encode ? enc(v) : v;
  });
}

/** Strings tried, in order, against a `pattern` (codes, numbers, slugs). */
const PATTERN_CANDIDATES = ['000000', '123456', '0701234567', '+46701234567', 'abc', 'a', 'A', 'abc-123', '1', '2030-01-01'];

/**
 * A well-formed value for a schema: its example, default or const when given, otherwise the
 * simplest value that satisfies it. Used as the starting point that the fuzzer then breaks, and
 * as the matrix's request when no fixture is given.
 */
export function exampleOf(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.anyOf?.[0]) return exampleOf(schema.anyOf[0]);
  if (schema.oneOf?.[0]) return exampleOf(schema.oneOf[0]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = exampleOf(schema.properties?.[name]);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      switch (schema.format) {
        case 'uuid':
          return '00000000-0000-4000-8000-000000000000';
        case 'date-time':
          return '2030-01-01T12:00:00.000Z';
        case 'date':
          return '2030-01-01';
        case 'email':
          return 'a@example.com';
        case 'uri':
          return 'https://example.com/';
        default: {
          const plain = 'x'.repeat(Math.max(1, schema.minLength ?? 1));
          if (!schema.pattern) return plain;
          const re = new RegExp(schema.pattern);
          return PATTERN_CANDIDATES.find((c) => re.test(c)) ?? plain;
        }
      }
    default:
      return undefined;
  }
}
