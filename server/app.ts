import http from 'node:http';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions, type RouteOptions, type preHandlerHookHandler } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { Services } from './services.ts';
import type { WebPushSenderOptions } from './providers/push/webpush.ts';
import { HttpError, clientErrorHandler, frameworkErrors, installErrorHandling, nonFiniteField } from './errors.ts';
import { apiRoutes, sandboxRoutes } from './routes.ts';
import { registerServerMessages } from './messages.ts';
import lifecycle from './plugins/lifecycle.ts';
import requestLogging, { lazyRequestLogger, loggerOptions, requestId, requestLogDestination } from './plugins/logging.ts';
import securityHeaders from './plugins/security.ts';
import openapiDocument, { docsRoutes } from './plugins/docs.ts';
import spa from './plugins/spa.ts';
import { catalogueFastRead, type FastRead } from './merchant/fast-read.ts';

export { loggerOptions, redactUrl, requestLogDestination } from './plugins/logging.ts';
export { helmetOptions, securityHeaders } from './plugins/security.ts';
export { cacheControlFor } from './plugins/spa.ts';

export interface AppDeps {
  db: Db;
  /** Replace services (clock, SMS gateway…) in tests. */
  services?: Partial<Services>;
  /**
   * Tests only: how the Web Push sender reaches the tests' fake push service (its CA, a resolver,
   * its local address let through), keeping the app's own key pair and allowed hosts.
   */
  webpush?: Pick<WebPushSenderOptions, 'ca' | 'resolve' | 'reachable'>;
  /** Extra pino options; tests pass a stream to read what was logged. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The database's connection string, for the catalogue cache's own LISTEN connection
   * (docs/decisions/064). Without it every catalogue read checks the version itself.
   */
  databaseUrl?: string;
  /** Tests only: `false` sends every request through Fastify (the catalogue's fast path off). */
  catalogueFastRead?: boolean;
}

/** 1 MiB for JSON; uploads (media) set their own, larger limits per route. */
const BODY_LIMIT = 1024 * 1024;

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

const refuseNonFinite: preHandlerHookHandler = (req, _reply, done) => {
  const field =
    (req.url.includes('?') ? nonFiniteField(req.query, 'query') : undefined) ??
    nonFiniteField(req.params, 'params') ??
    (req.body === undefined ? undefined : nonFiniteField(req.body, 'body'));
  done(field ? new HttpError(400, 'VALIDATION_FAILED', {}, [{ field, problem: 'finite' }]) : undefined);
};

/** A route that takes a body (any method but GET and HEAD, or a body schema), or numbers in its query string or path. */
export function mayCarryNumbers(route: Pick<RouteOptions, 'method' | 'schema'>): boolean {
  const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
  if (methods.some((m) => m !== 'GET' && m !== 'HEAD')) return true;
  const schema = route.schema;
  if (!schema) return false;
  if (schema.body) return true;
  // A reference could hide a number: such a route keeps the check.
  return /"type":\s*(?:\[[^\]]*)?"(?:number|integer)"|"\$ref"/.test(JSON.stringify([schema.querystring ?? null, schema.params ?? null]));
}

/**
 * The node:http server Fastify would make (the same timeouts: lib/server.js `getServerInstance`),
 * whose handler first offers each request to `first` (the catalogue's fast path, decision 157);
 * whatever it does not answer goes to Fastify's handler unchanged.
 */
function serverWithFastPath(first: () => FastRead | undefined) {
  return (handler: http.RequestListener, opts: FastifyServerOptions): http.Server => {
    const server = http.createServer((req, res) => {
      if (first()?.(req, res) !== true) handler(req, res);
    });
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = opts.requestTimeout ?? 0;
    server.setTimeout(opts.connectionTimeout ?? 0);
    if (opts.maxRequestsPerSocket) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}

/** Fastify's own "closing" state (set when close() begins, before the preClose hooks). */
function closingOf(app: FastifyInstance): () => boolean {
  const state = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.state');
  if (!state) throw new Error("Fastify's state is not where the catalogue's fast path reads it (server/app.ts closingOf)");
  const holder = app as unknown as Record<symbol, { closing?: boolean }>;
  return () => holder[state]!.closing === true;
}

/**
 * The app: Fastify's options, then one plugin per concern (server/plugins/): the services and
 * their lifecycle, the request log, the error answers, the security headers, the OpenAPI document
 * and docs, the API's routes, the SPA.
 */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  registerServerMessages();
  const requestLog = deps.logger ? undefined : requestLogDestination();
  // Made once the app is ready; until then (and with `catalogueFastRead: false`) Fastify answers all.
  let fastRead: FastRead | undefined;
  const app = Fastify({
    serverFactory: serverWithFastPath(() => fastRead),
    logger: deps.logger ?? { ...(loggerOptions(config) as object), ...(requestLog ? { stream: requestLog.stream } : {}) },
    bodyLimit: BODY_LIMIT,
    // A number of hops becomes proxy-addr's "trust the first n" function.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    requestIdHeader: false,
    // One log line per request (server/plugins/logging.ts) instead of Fastify's two: half the logging cost.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    // The request's child logger is made when the request first logs (decision 153).
    childLoggerFactory: lazyRequestLogger,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(lifecycle, { config, db: deps.db, services: deps.services, webpush: deps.webpush, databaseUrl: deps.databaseUrl });
  await app.register(requestLogging);

  installErrorHandling(app);
  // After validation (and Ajv's coercion), before any handler: no Infinity reaches a route.
  // Only on routes where Ajv or the JSON parser can make a number (decision 135): a body (JSON's
  // 1e999 parses to Infinity), or a query string or path parameters whose schema has a number. A
  // catalogue read (string parameters, no body) runs no hook for it.
  app.addHook('onRoute', (route) => {
    if (!mayCarryNumbers(route)) return;
    const own = route.preHandler;
    route.preHandler = own ? [refuseNonFinite, ...(Array.isArray(own) ? own : [own])] : refuseNonFinite;
  });

  await app.register(securityHeaders, { config });
  await app.register(openapiDocument, { config });
  await app.register(
    async (api) => {
      await api.register(docsRoutes);
      await api.register(apiRoutes);
      if (config.sandbox) await api.register(sandboxRoutes, { prefix: '/sandbox' });
    },
    { prefix: '/api' },
  );
  await app.register(spa, { config, db: deps.db });

  // The catalogue's three cached reads, answered before Fastify's pipeline when the cache holds
  // the answer (server/merchant/fast-read.ts, decision 157).
  if (deps.catalogueFastRead !== false) {
    const closing = closingOf(app);
    app.addHook('onReady', (done) => {
      fastRead = catalogueFastRead({
        cache: app.catalogueCache,
        securityHeaders: app.answerSecurityHeaders,
        requestId,
        logRequest: app.logRequest,
        closing,
      });
      done();
    });
  }

  // Last, so it runs after every other close: the request lines written so far, out before the
  // process goes.
  if (requestLog) {
    app.addHook('onClose', async () => {
      await requestLog.flush();
    });
  }
  return app;
}
