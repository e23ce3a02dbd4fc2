import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesIfNoneMatch, type CachedAnswer, type CatalogueCache } from './cache.ts';
import { CATALOGUE_CACHE_CONTROL } from './routes.ts';
import type { RequestLineWriter } from '../plugins/logging.ts';

/**
 * The catalogue's fast path (decision 157): a GET or HEAD of one of the three cached public reads
 * (`/api/merchant`, `/api/merchant/{id}`, `/api/merchant/{id}/products`) whose answer the cache
 * holds is answered before Fastify's request pipeline, by the node:http server's own handler
 * (`serverFactory` in server/app.ts). Everything else goes to Fastify unchanged: a miss (Fastify
 * loads the answer and fills the cache), another path or a query string, a trailing slash, a
 * method, a body, `Expect`, a conditional or range header the routes do not handle, the cache
 * checking the version (its listening connection gone), and any request once the app is closing
 * (Fastify then answers 503 with `Connection: close`).
 *
 * The answer is the one the routes give (server/merchant/routes.ts `send`), byte for byte but for
 * Date and the request id's value (tests/server/merchant/fast-read.test.ts compares them):
 * the request id header first, the security headers (the same object the security plugin sets),
 * ETag, Cache-Control, then for a 200 the content type and length and the body; 304 on a
 * matching If-None-Match, without a body; HEAD with the headers of its GET (and Fastify's
 * `content-length: 0` on a 304). The same request line is written, through the same logger.
 */
export interface FastReadDeps {
  cache: Pick<CatalogueCache, 'peek'>;
  /** The security headers every answer carries (server/plugins/security.ts, computed once). */
  securityHeaders: Readonly<Record<string, string>>;
  /** The request id for a request (server/plugins/logging.ts `requestId`). */
  requestId(req: IncomingMessage): string;
  /** The one request line (server/plugins/logging.ts), the same fields as Fastify's requests'. */
  logRequest: RequestLineWriter;
  /** True once the app has begun to close: then Fastify answers. */
  closing(): boolean;
}

export interface FastRead {
  /** Answers the request and returns true, or returns false having touched nothing. */
  (req: IncomingMessage, res: ServerResponse): boolean;
}

const UUID = '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}';
/** Exactly the three reads, no query string, no trailing slash, no percent-encoding. */
const ROUTE = new RegExp(`^/api/merchant(?:/(${UUID})(/products)?)?$`);
const PREFIX = '/api/merchant';

/** Request headers that could make Fastify's answer differ from this path's, or that it does not handle. */
const NOT_HANDLED = ['content-length', 'transfer-encoding', 'expect', 'range', 'if-range', 'if-match', 'if-modified-since', 'if-unmodified-since'] as const;

/**
 * Per cached answer, made once: the headers as node:http's flat [name, value, …] list with the
 * request id's value at index 1 (set just before `writeHead`, which copies the list into the
 * header block at once), and the body: a small one as its text, a larger one as bytes.
 *
 * Why both (decision 162): node:http writes a text body of its first `end()` in one piece with the
 * header block (`_send` joins the two strings: one `write`), a Buffer as a second piece (`writev`
 * of the two). Measured on bare servers replaying the same answer (bench/bare-body.mjs), the one
 * write costs less CPU below about 1 KiB and more above (the text is encoded to bytes for every
 * answer, the Buffer is not). The join writes the header block as UTF-8: the same bytes only
 * while every header is ASCII, which `prepare` checks (the request id is ASCII by construction).
 */
const SMALL_BODY = 1024;
const ASCII = /^[\x20-\x7e]*$/;

interface Prepared {
  ok: string[];
  notModified: string[];
  headNotModified: string[];
  body: Buffer | string;
}

function flat(headers: Record<string, string>): string[] {
  return ['x-request-id', '', ...Object.entries(headers).flat()];
}

/** The cache key the routes use for a path (server/merchant/routes.ts). */
function keyOf(match: RegExpExecArray): string {
  const id = match[1];
  if (id === undefined) return 'merchant';
  return `${match[2] ? 'products' : 'merchant'}:${id.toLowerCase()}`;
}

export function catalogueFastRead(deps: FastReadDeps): FastRead {
  const prepared = new WeakMap<CachedAnswer, Prepared>();
  const prepare = (answer: CachedAnswer): Prepared => {
    const common = { ...deps.securityHeaders, etag: answer.etag, 'cache-control': CATALOGUE_CACHE_CONTROL };
    const bytes = Buffer.from(answer.body);
    const ok = flat({ ...common, 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
    const p: Prepared = {
      ok,
      notModified: flat(common),
      headNotModified: flat({ ...common, 'content-length': '0' }),
      body: bytes.length < SMALL_BODY && ok.every((h) => ASCII.test(h)) ? answer.body : bytes,
    };
    prepared.set(answer, p);
    return p;
  };

  return (req, res) => {
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url;
    if (url === undefined || !url.startsWith(PREFIX) || req.httpVersionMajor !== 1) return false;
    const match = ROUTE.exec(url);
    if (!match) return false;
    const headers = req.headers;
    for (const name of NOT_HANDLED) if (headers[name] !== undefined) return false;
    if (deps.closing()) return false;
    const answer = deps.cache.peek(keyOf(match));
    if (!answer) return false;

    const start = performance.now();
    const p = prepared.get(answer) ?? prepare(answer);
    const id = deps.requestId(req);
    const status = matchesIfNoneMatch(headers['if-none-match'], answer.etag) ? 304 : 200;
    const list = status === 304 ? (method === 'HEAD' ? p.headNotModified : p.notModified) : p.ok;
    list[1] = id;
    res.writeHead(status, list);
    if (status === 200 && method === 'GET') res.end(p.body);
    else res.end();
    deps.logRequest(id, method, url, status, performance.now() - start);
    return true;
  };
}
