import fc from 'fast-check';
import { enc, exampleOf, fillPath, type JsonSchema, type Operation } from './openapi.ts';
import type { Req } from './target.ts';

/**
 * Generators of bad requests for one operation of the OpenAPI document: odd path parameters,
 * query strings and headers, wrong content types, broken, huge or oddly-typed JSON, garbage
 * bearer tokens. They start from a well-formed request (the schema's example) and break one or
 * more parts of it, so the server's deeper checks are reached too, not only the JSON parser.
 */

export interface FuzzContext {
  /** Valid access tokens of signed-in users, when auth exists: fuzzing then goes past the 401. */
  validTokens: string[];
  /** Ids that exist (seeded merchants, the users' own things), so path fuzzing hits real rows. */
  knownIds: string[];
  /** Live secrets (an unused verification token, refresh tokens), so refusals past the lookup happen. */
  knownStrings: string[];
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');

const oddStrings = fc.constantFrom(
  '',
  ' ',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'Infinity',
  '-1e999',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '../../etc/passwd',
  "'; DROP TABLE app_meta;--",
  '%00',
  '\u0000',
  '\uFEFF',
  '\uD800',
  'ÅÄÖ åäö',
  '🎁🎉',
  'a\u0301\u0301\u0301',
  '__proto__',
  'constructor',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '${jndi:ldap://x}',
);

/** Strings people and attackers send: odd, unicode, numeric, long. */
export const anyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: oddStrings },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.uuid().map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 5000 }).map((n) => 'x'.repeat(n)) },
);

/** JSON values of every type, including the ones a schema does not expect. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  anyString,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(null, true, false, 0, -0, Number.MAX_SAFE_INTEGER + 2, -1, 1e300, [], {}, [null], { '': '' }),
  fc.integer().map(String),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A field value of the wrong kind for its schema (a number as a string and the like). */
function wrongFor(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const ex = exampleOf(schema);
  const alt: fc.Arbitrary<unknown>[] = [oddValue];
  if (typeof ex === 'number') alt.push(fc.constant(String(ex)), fc.constant(ex + 0.5), fc.constant(-ex - 1));
  if (typeof ex === 'string') alt.push(fc.constant(Number(ex) || 1), fc.constant([ex]), fc.constant(ex.repeat(1000)), fc.constant(` ${ex} `));
  if (typeof ex === 'boolean') alt.push(fc.constantFrom('true', 'false', 1, 0, 'yes'));
  return fc.oneof(...alt);
}

/** The schema's example with one thing broken: a field's type, a missing field, an extra field. */
function brokenObject(schema: JsonSchema | undefined, validIds: string[], knownStrings: string[]): fc.Arbitrary<unknown> {
  const base = exampleOf(schema);
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return fc.constant(base);
  const props = Object.keys(schema?.properties ?? {});
  const names = props.length ? props : ['x'];
  const useId = validIds.length ? fc.constantFrom(...validIds) : fc.uuid();
  return fc.oneof(
    fc.constant(base),
    fc.constantFrom(...names).chain((name) => wrongFor(schema?.properties?.[name]).map((v) => ({ ...base, [name]: v }))),
    fc.constantFrom(...names).map((name) => {
      const copy: Record<string, unknown> = { ...(base as Record<string, unknown>) };
      delete copy[name];
      return copy;
    }),
    fc.tuple(anyString, oddValue).map(([k, v]) => ({ ...base, [k]: v })),
    fc.constantFrom(...names).chain((name) => useId.map((id) => ({ ...base, [name]: id }))),
    ...(knownStrings.length
      ? [
          fc.tuple(fc.constantFrom(...names), fc.constantFrom(...knownStrings)).map(([name, v]) => ({ ...base, [name]: v })),
          fc.tuple(fc.constantFrom(...names), fc.constantFrom(...knownStrings)).map(([name, v]) => ({ ...base, [name]: v })),
          fc.tuple(fc.constantFrom(...names), fc.constantFrom(...knownStrings)).map(([name, v]) => ({ ...base, [name]: v })),
        ]
      : []),
    fc.constant(JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}')),
  );
}

const MIB = 1024 * 1024;

/** The raw body text: usually JSON, sometimes not, sometimes huge or deeply nested. */
function bodyText(op: Operation, ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: brokenObject(op.body, ctx.knownIds, ctx.knownStrings).map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        '{',
        '{"a":',
        'nul',
        '{"a":1}{"b":2}',
        "{'single':'quotes'}",
        '\uFEFF{}',
        '{"a":"\\ud800"}',
        '{"a":1e999999}',
        '[' + '1,'.repeat(2000) + '1]',
        '{"a":"' + 'ö'.repeat(10_000) + '"}',
        '\u0000\u0001\u0002',
        'mobileNumber=0701234567',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 10, max: 20_000 }).map((d) => '['.repeat(d) + ']'.repeat(d)) },
    { weight: 1, arbitrary: fc.integer({ min: 10, max: 2_000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)) },
    // Just past the 1 MiB JSON limit: must be 413, not a parse of a megabyte.
    { weight: 1, arbitrary: fc.constant(JSON.stringify({ a: 'x'.repeat(MIB + 10) })) },
  );
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'garbage',
  '',
  undefined,
);

function jwtLike(header: object, payload: object, sig = 'c2lnbmF0dXJl'): string {
  return `${b64(JSON.stringify(header))}.${b64(JSON.stringify(payload))}.${sig}`;
}

function authorization(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  const forged = fc.uuid().map((sub) => {
    const now = Math.floor(Date.now() / 1000);
    return fc.constantFrom(
      `Bearer ${jwtLike({ alg: 'none', typ: 'JWT' }, { sub, exp: now + 600 }, '')}`,
      `Bearer ${jwtLike({ alg: 'HS256', typ: 'JWT' }, { sub, exp: now + 600 })}`,
      `Bearer ${jwtLike({ alg: 'RS256', typ: 'JWT' }, { sub, exp: now - 600 })}`,
      `Bearer ${jwtLike({ alg: 'HS256' }, { sub: 12, exp: 'soon' })}`,
      `Bearer ${jwtLike({}, {})}`,
    );
  });
  const withValid = ctx.validTokens.length
    ? [
        { weight: 4, arbitrary: fc.constantFrom(...ctx.validTokens).map((t) => `Bearer ${t}`) },
        // A real token, tampered: one character of the signature, or the payload re-encoded.
        {
          weight: 1,
          arbitrary: fc.constantFrom(...ctx.validTokens).map((t) => `Bearer ${t.slice(0, -2)}${t.endsWith('A') ? 'B' : 'A'}${t.slice(-1)}`),
        },
        { weight: 1, arbitrary: fc.constantFrom(...ctx.validTokens).map((t) => `bearer ${t}`) },
      ]
    : [];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: forged.chain((a) => a) },
    { weight: 1, arbitrary: fc.constantFrom('Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'Bearer a.b.c', 'Bearer ....', 'Token x', 'Bearer ' + 'x'.repeat(8000)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((s) => `Bearer ${s}`) },
    ...withValid,
  );
}

/** Header values that can be sent at all (HTTP forbids control characters). */
const headerValue = fc
  .oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), fc.constantFrom('sv', 'en', 'en-US,en;q=0.9', '*', 'xx;q=abc', 'sv;q=0', ';;;,,,', 'en;q=1e999'))
  .filter((s) => /^[\x20-\x7e]*$/.test(s));

function queryString(op: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const declared = op.queryParams.map((p) => p.name);
  const key = fc.oneof(
    ...(declared.length ? [{ weight: 4, arbitrary: fc.constantFrom(...declared) }] : []),
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'q[]', 'a[b]', '', 'limit', 'cursor', 'token', 'id') },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  const known = [...ctx.knownIds, ...ctx.knownStrings, ...ctx.validTokens];
  const value = fc.oneof(anyString, ...(known.length ? [fc.constantFrom(...known)] : []));
  const pair = fc.tuple(key, value, fc.boolean()).map(([k, v, raw]) =>
    raw ? `${enc(k)}=${enc(v).replace(/%(2[0-9A-F]|[3-7][0-9A-F])/g, (m) => (m === '%25' || m === '%23' || m === '%26' || m === '%3F' || m === '%20' ? m : decodeURIComponent(m)))}` : `${enc(k)}=${enc(v)}`,
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 5, arbitrary: fc.array(pair, { minLength: 1, maxLength: 5 }).map((ps) => `?${ps.join('&')}`) },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&&', '?=', '?a', '?%', '?%zz=1', '?a=%E0%A4%A', `?q=${'x'.repeat(5000)}`) },
  );
}

function pathValue(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: anyString },
    { weight: 2, arbitrary: fc.uuid().map(String) },
    ...(ctx.knownIds.length ? [{ weight: 2, arbitrary: fc.constantFrom(...ctx.knownIds) }] : []),
  );
}

/** One bad request for `op`. */
export function badRequestFor(op: Operation, ctx: FuzzContext): fc.Arbitrary<Req> {
  const params = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, pathValue(ctx)])) as Record<string, fc.Arbitrary<string>>);
  const takesBody = op.method !== 'GET' && op.method !== 'HEAD';
  const body = takesBody ? bodyText(op, ctx) : fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodyText(op, ctx) });
  return fc
    .record({
      params,
      query: queryString(op, ctx),
      body,
      contentType: contentTypes,
      auth: authorization(ctx),
      lang: fc.option(headerValue, { nil: undefined }),
      requestId: fc.option(headerValue, { nil: undefined }),
      extraHeaders: fc.array(fc.tuple(fc.constantFrom('x-forwarded-for', 'x-forwarded-proto', 'origin', 'accept', 'if-none-match', 'range', 'x-http-method-override'), headerValue), { maxLength: 2 }),
      ip: fc.ipV4(),
      // Sometimes a parameter goes on the wire as is: broken %-escapes, encoded slashes.
      rawParam: fc.option(fc.constantFrom('%zz', '%', '%E0%A4%A', '%00', '%2F', '%2e%2e%2F', '%C0%AE', '%FF%FE', ';', '%3B'), { nil: undefined, freq: 8 }),
    })
    .map(({ params, query, body, contentType, auth, lang, requestId, extraHeaders, ip, rawParam }) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of extraHeaders) headers[k] = v;
      if (auth !== undefined) headers.authorization = auth;
      if (lang !== undefined) headers['accept-language'] = lang;
      if (requestId !== undefined) headers['x-request-id'] = requestId;
      if (body !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      const first = op.pathParams[0]?.name;
      const path = rawParam !== undefined && first ? fillPath(op.path.replace(`{${first}}`, rawParam), params) : fillPath(op.path, params);
      const req: Req = { method: op.method, url: path + query, headers, remoteAddress: ip };
      if (body !== undefined) req.payload = body;
      return req;
    });
}

/** Requests to paths and methods the API does not have: 404/405 in the error shape, never a page. */
export const strayRequest: fc.Arbitrary<Req> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    path: fc.oneof(
      fc.constantFrom('/api', '/api/', '/api/nope', '/api//health', '/api/health/x', '/api/merchant/%2F..%2F..%2Fx', '/api/sandbox/nope', '/api/openapi.json/x'),
      fc.array(anyString, { minLength: 1, maxLength: 4 }).map((parts) => '/api/' + parts.map(enc).join('/')),
    ),
    body: fc.option(fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), { nil: undefined }),
  })
  .map(({ method, path, body }) => {
    const req: Req = { method, url: path, headers: body !== undefined ? { 'content-type': 'application/json' } : {} };
    if (body !== undefined) req.payload = body;
    return req;
  });
