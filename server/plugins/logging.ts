import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import type { FastifyBaseLogger, FastifyPluginCallback, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/**
 * Logging: pino's options (redaction, the request serializer), where request logs go, the
 * request id and the one log line per request.
 */

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

/** The request id: the caller's X-Request-Id when it is a safe token, else a new UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Log lines carry the path and query *names*, never query values: refresh tokens travel in the
 * query string (API.md), and no secret may reach a log.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  // A greetie's ref in the recipient's link is its key, like the byRef query's value.
  const pathname = (q === -1 ? url : url.slice(0, q)).replace(/^\/greetie\/view\/[^/]+/, '/greetie/view/[redacted]');
  if (q === -1) return pathname;
  const params = new URLSearchParams(url.slice(q + 1));
  const keys = [...new Set(params.keys())];
  return `${pathname}?${keys.map((k) => `${encodeURIComponent(k)}=[redacted]`).join('&')}`;
}

/**
 * The request's logger (`req.log`, `reply.log`), made when it is first used (decision 153).
 * Fastify makes a pino child with the request id for every request (`childLoggerFactory`); with
 * redaction on, that child runs the redaction over its bindings, about 2 µs a request. A read that
 * goes well never logs through it (its one line goes through the request line's own logger), so
 * the child is only made for a request that writes something (a warning, an error): then it is the
 * same child as before, with the same bindings, level and serializers.
 */
function call(log: FastifyBaseLogger, level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', args: unknown[]): void {
  (log[level] as (...a: unknown[]) => void).apply(log, args);
}

class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: pino.Bindings,
    private readonly opts: pino.ChildLoggerOptions,
  ) {}
  private get log(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.opts));
  }
  get level(): string {
    return this.log.level;
  }
  set level(level: string) {
    this.log.level = level;
  }
  // Methods on the prototype, not arrow fields: nothing more is made per request than this object.
  fatal(...args: unknown[]): void {
    call(this.log, 'fatal', args);
  }
  error(...args: unknown[]): void {
    call(this.log, 'error', args);
  }
  warn(...args: unknown[]): void {
    call(this.log, 'warn', args);
  }
  info(...args: unknown[]): void {
    call(this.log, 'info', args);
  }
  debug(...args: unknown[]): void {
    call(this.log, 'debug', args);
  }
  trace(...args: unknown[]): void {
    call(this.log, 'trace', args);
  }
  silent(...args: unknown[]): void {
    call(this.log, 'silent', args);
  }
  child(bindings: pino.Bindings, opts?: pino.ChildLoggerOptions): FastifyBaseLogger {
    return this.log.child(bindings, opts);
  }
  isLevelEnabled(level: string): boolean {
    return (this.log as pino.Logger).isLevelEnabled(level);
  }
}

/** Fastify's `childLoggerFactory`: the request's child logger, made on first use. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: pino.Bindings, opts: pino.ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, opts) as unknown as FastifyBaseLogger;
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.refreshToken', '*.code', '*.password', '*.merchantCode'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
    },
  };
}

/**
 * Where request logs go when buildApp is given no logger: standard output through pino's
 * asynchronous destination, batched (decisions 064, 153). Info and below wait until 64 KiB have
 * gathered or a second has passed, one write for many lines instead of one per request; a warning
 * or an error is written at once, with everything before it. Flushed on close and by pino at
 * process exit, so a clean shutdown loses nothing; a `kill -9` can lose at most the last second of
 * info lines.
 *
 * The destination keeps the lines as bytes (sonic-boom's buffer mode, each line encoded once as it
 * is written): in its text mode every line measured the batch gathered so far again (a copy of
 * the whole batch per line) and every write encoded the batch twice, which is why the batches
 * were kept at 4 KiB. A line costs about 1 µs to hand over this way against 5 µs (decision 153).
 *
 * The warning's flush is pino's own multistream: every line goes to the destination, and a line
 * at warn or above also reaches a second stream whose write flushes the destination (multistream
 * writes to its streams from the lowest level up, so the line is in the buffer first).
 */
export function requestLogDestination(): { stream: pino.DestinationStream; flush(): Promise<void> } {
  const dest = pino.destination({ dest: 1, sync: false, contentMode: 'buffer', minLength: 64 * 1024, maxWrite: 128 * 1024, periodicFlush: 1000 });
  const bytes: pino.DestinationStream & { flushSync(): void } = {
    write: (line: string) => dest.write(Buffer.from(line) as unknown as string),
    flushSync: () => dest.flushSync(),
  };
  const flushNow: pino.DestinationStream = { write: () => dest.flush() };
  return {
    stream: pino.multistream([
      { level: 'trace', stream: bytes },
      { level: 'warn', stream: flushNow },
    ]),
    // Resolves once everything written so far is out (or after 2 s: a stuck stdout must not hold
    // the shutdown up).
    flush: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2000);
        try {
          dest.flush(() => {
            clearTimeout(timer);
            resolve();
          });
        } catch {
          clearTimeout(timer);
          resolve();
        }
      }),
  };
}

/** The line's object as pino's `info` takes it (the request serializer turns `req` into id, method and the redacted URL). */
function requestLineObject(id: string, method: string, url: string, statusCode: number, elapsedMs: number) {
  return { reqId: id, req: { id, method, url }, res: { statusCode }, responseTime: Math.round(elapsedMs * 10) / 10 };
}

const MESSAGE = 'request completed';

/** Writes one request's line: its id, method, URL (redacted in the line), status and time taken. */
export type RequestLineWriter = (id: string, method: string, url: string, statusCode: number, elapsedMs: number) => void;
const sym = pino.symbols;

/**
 * The request line's writer (decision 162). Pino's `info` walks the object, runs the serializer and
 * escapes every string, about a tenth of a cached read's CPU; the line's shape never changes, so it
 * is written from a template: pino's own level prefix, time and bindings (pid, hostname), then the
 * fields in the same order, JSON-escaped, to the logger's own stream with the metadata pino gives a
 * multistream (so the level routing and the warning flush are unchanged). At start the template is
 * checked against pino's own serialization of a sample line (`asJson`, what `info` writes); if the
 * logger is set up otherwise (a formatter, a mixin, a message key, a hook, another serializer)
 * they differ and every line goes through `info` as before. Below info, nothing is written.
 */
export function requestLineWriter(line: pino.Logger): RequestLineWriter {
  const viaPino: RequestLineWriter = (id, method, url, statusCode, elapsedMs) => {
    line.info(requestLineObject(id, method, url, statusCode, elapsedMs), MESSAGE);
  };
  const own = line as unknown as Record<symbol, unknown>;
  const time = own[sym.timeSym] as () => string;
  // A logger that is not pino's own (a test's, a silent one) may lack any of these: then pino's `info`.
  const prefix = (own[sym.lsCacheSym] as Record<number, string> | undefined)?.[30];
  const end = own[sym.endSym] as string;
  if (typeof prefix !== 'string' || typeof time !== 'function' || typeof end !== 'string' || typeof own[sym.asJsonSym] !== 'function') return viaPino;
  const template = (id: string, method: string, url: string, statusCode: number, elapsedMs: number, t: string): string =>
    `${prefix}${t}${own[sym.chindingsSym] as string},"reqId":${JSON.stringify(id)},"req":{"id":${JSON.stringify(id)},"method":${JSON.stringify(method)},"url":${JSON.stringify(redactUrl(url))}},"res":{"statusCode":${statusCode}},"responseTime":${Math.round(elapsedMs * 10) / 10},"msg":"${MESSAGE}"${end}`;
  // The same sample both ways, at the same time: the template is used only if pino writes exactly this.
  const sample = ['0a1b2c3d-sample', 'GET', '/api/x?token=secret&a="b"', 200, 1.25] as const;
  const t0 = time();
  const pinoLine = (own[sym.asJsonSym] as (o: object, m: string, n: number, t: string) => string).call(line, requestLineObject(...sample), MESSAGE, 30, t0);
  const hooks = own[sym.hooksSym] as { streamWrite?: unknown } | undefined;
  if (hooks?.streamWrite || own[sym.mixinSym] || pinoLine !== template(...sample, t0)) return viaPino;
  const sliceAt = own[sym.timeSliceIndexSym] as number;
  return (id, method, url, statusCode, elapsedMs) => {
    if (!line.isLevelEnabled('info')) return;
    const t = time();
    const text = template(id, method, url, statusCode, elapsedMs, t);
    const stream = own[sym.streamSym] as pino.DestinationStream & Record<string | symbol, unknown>;
    if (stream[sym.needsMetadataGsym] === true) {
      stream.lastLevel = 30;
      stream.lastObj = requestLineObject(id, method, url, statusCode, elapsedMs);
      stream.lastMsg = MESSAGE;
      stream.lastTime = t.slice(sliceAt);
      stream.lastLogger = line;
    }
    stream.write(text);
  };
}

/**
 * Every answer carries its request id, and each request is one log line once answered (Fastify's
 * own two lines are off: `disableRequestLogging` in buildApp). Callback-style hooks: no promise
 * per hook and request (decision 064).
 *
 * The line goes through one logger made once, without redaction, instead of the request's own
 * child logger (decision 135): its fields have a fixed shape — the request serializer keeps only
 * id, method and the URL with query values and the greetie ref taken out (`redactUrl`), plus the
 * status and the time — so nothing in it can hold a secret, and the redaction paths (written for
 * other lines: `*.token`, headers…) only walked it, about 4 µs a line. `reqId` is written as a
 * field, where the request's child logger put it, so the line keeps its shape.
 */
const requestLogging: FastifyPluginCallback = (app, _opts, done) => {
  const line = app.log.child({}, { redact: [] });
  // Also written by the catalogue's fast path (server/merchant/fast-read.ts, decision 157): one
  // place for the line's fields. `req` goes through the request serializer either way.
  const logRequest = requestLineWriter(line as unknown as pino.Logger);
  app.decorate('logRequest', logRequest);
  app.addHook('onRequest', (req, reply, next) => {
    reply.header('x-request-id', req.id);
    next();
  });
  app.addHook('onResponse', (req, reply, next) => {
    logRequest(req.id, req.method, req.url, reply.statusCode, reply.elapsedTime);
    next();
  });
  done();
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes a request's one "request completed" line (server/plugins/logging.ts). */
    logRequest: RequestLineWriter;
  }
}

export default fp(requestLogging, { name: 'greetie-request-logging' });
