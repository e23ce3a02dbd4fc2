import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { openapiComponents, TAGS, transformRoute } from './openapi.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { Services } from './services.ts';
import { createSmsSender } from './providers/sms/index.ts';
import { createPaymentProvider } from './providers/payment/index.ts';
import { createStorage } from './providers/storage/index.ts';
import { createMediaCleanup } from './media/rules.ts';
import { createDeliveryQueue } from './delivery/queue.ts';
import { createPushProvider } from './providers/push/index.ts';
import { createWebPushSender, resolveVapidKeys, type WebPushSenderOptions } from './providers/push/webpush.ts';
import { createNotificationQueue } from './notification/queue.ts';
import { CatalogueCache } from './merchant/cache.ts';
import { startRateEventPurge, type RateEventPurge } from './auth/retention.ts';
import { HttpError, clientErrorHandler, frameworkErrors, installErrorHandling, nonFiniteField, sendError } from './errors.ts';
import { apiRoutes, sandboxRoutes } from './routes.ts';
import { registerServerMessages } from './messages.ts';
import { createViewShell } from './spa/viewShell.ts';
import { createSpaPages, sendHtml } from './spa/shell.ts';
import { FIRST_SCREEN_PATHS } from './spa/firstScreens.ts';
import { ErrorBody } from '../contract/common.ts';

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
}

/** 1 MiB for JSON; uploads (media) set their own, larger limits per route. */
const BODY_LIMIT = 1024 * 1024;

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,64}$/;

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
 * asynchronous destination, batched (decision 064). Info and below wait until 4 KiB have gathered
 * or a second has passed, one write for many lines instead of one per request; a warning or an
 * error is written at once, with everything before it. Flushed synchronously on close and by pino
 * at process exit, so a clean shutdown loses nothing; a `kill -9` can lose at most the last second
 * of info lines.
 */
export function requestLogDestination(): { stream: { write(line: string): void }; flush(): Promise<void> } {
  const dest = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 });
  return {
    stream: {
      write(line: string) {
        dest.write(line);
        // pino writes the level first, `{"level":30,`: below 40 (warn) may wait; anything else,
        // or a line of another shape, goes out now.
        if (line.charCodeAt(9) >= 52 || line.charCodeAt(11) !== 44) dest.flush();
      },
    },
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

/** Hashed assets never change; index.html must be revalidated so a deploy reaches everyone. */
export function cacheControlFor(relativePath: string): string {
  if (relativePath.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (relativePath === 'index.html' || relativePath.startsWith('index.html.')) return 'no-cache';
  return 'public, max-age=3600';
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/**
 * helmet's options for our answers: a CSP allowing only the app's own origin (decision 004), HSTS
 * when PUBLIC_URL is https. Exported for the test that compares our headers with helmet's own.
 */
export function helmetOptions(config: Config): Record<string, unknown> {
  const https = config.publicUrl.startsWith('https:');
  // Google Analytics origins, only when a measurement id is configured (the SPA still loads the
  // tracker only after consent: src/app/analytics.ts).
  const ga = config.analyticsId
    ? { script: ['https://www.googletagmanager.com'], connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com'] }
    : { script: [], connect: [] };
  return {
    // The SPA loads only its own files: scripts, styles and the self-hosted font.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...ga.script],
        styleSrc: ["'self'"],
        // Radix's modal dialog (the navigation drawer) locks scrolling with a small <style> element
        // it writes at run time (react-remove-scroll); its content varies, so no hash fits. Inline
        // <style> elements are allowed, nothing else inline: no inline scripts, and style
        // attributes still fall under style-src 'self' (decision 004).
        styleSrcElem: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...ga.connect],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...ga.connect],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
}

// helmet as @fastify/helmet resolves it (the same version; not a dependency of ours by name).
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))('helmet') as (
  options: Record<string, unknown>,
) => (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * The headers helmet sets for `options`, read once from a stand-in response: with static options
 * (ours are: no nonces, no functions) they are the same for every request.
 */
export function securityHeaders(options: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err) => (failed = err));
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  registerServerMessages();
  const requestLog = deps.logger ? undefined : requestLogDestination();
  const app = Fastify({
    logger: deps.logger ?? { ...(loggerOptions(config) as object), ...(requestLog ? { stream: requestLog.stream } : {}) },
    bodyLimit: BODY_LIMIT,
    // A number of hops becomes proxy-addr's "trust the first n" function.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    requestIdHeader: false,
    // One log line per request (onResponse below) instead of Fastify's two: half the logging cost.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', deps.db);
  const services = { now: () => new Date(), ...deps.services } as Services;
  // Reads the clock through `services` so a test that moves `now` moves the outbox's times too.
  services.sms ??= createSmsSender(config, deps.db, () => services.now());
  services.storage ??= createStorage(config);
  services.media ??= createMediaCleanup(services.storage);
  services.payments ??= createPaymentProvider(config, deps.db, () => services.now());
  services.delivery ??= createDeliveryQueue({ db: deps.db, config, services, log: app.log });
  services.push ??= createPushProvider(config, deps.db, () => services.now());
  // One VAPID key pair for every process: the settings' or the database's (decision 095).
  services.webpush ??= createWebPushSender({
    keys: await resolveVapidKeys(deps.db, { keys: config.push.vapidKeys, dataDir: config.dataDir }),
    subject: config.push.vapidSubject,
    allowedHosts: config.push.webpushAllowedHosts,
    ...deps.webpush,
  });
  services.notifications ??= createNotificationQueue({ db: deps.db, config, services, log: app.log });
  app.decorate('services', services);
  // The delivery worker (DELIVERY_WORKER, on by default; decision 081) runs with the app: started
  // once it is ready, stopped on close before the pool is (deliveries in flight finish first).
  if (config.delivery.worker) {
    app.addHook('onReady', async () => {
      await services.delivery.start();
      await services.notifications.start();
    });
    app.addHook('onClose', async () => {
      await services.notifications.stop();
      await services.delivery.stop();
    });
  }

  // Rate-limit events (IP addresses, numbers) older than 30 days are deleted at start-up and every
  // hour, as the privacy policy promises (server/auth/retention.ts).
  let ratePurge: RateEventPurge | undefined;
  app.addHook('onReady', async () => {
    ratePurge = startRateEventPurge({ db: deps.db, now: () => services.now(), log: app.log });
  });
  app.addHook('onClose', async () => {
    await ratePurge?.stop();
  });

  // The catalogue's answers, emptied by PostgreSQL notifications once listening (decision 064).
  const catalogueCache = new CatalogueCache(deps.db, { listenUrl: deps.databaseUrl, log: app.log });
  app.decorate('catalogueCache', catalogueCache);
  app.addHook('onReady', async () => {
    await catalogueCache.start();
  });
  app.addHook('onClose', async () => {
    await catalogueCache.close();
    await requestLog?.flush(); // the last request lines before the process goes
  });

  // Hooks run on every request: callback style (no promise per hook and request), no work a
  // request does not need (decision 064).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  // Shutting down (decision 002): an answer still being made when close begins goes out with
  // `Connection: close`, so its keep-alive connection ends with it. Otherwise that connection
  // would stay open, idle, for the keep-alive timeout, and hold close() up long after the last
  // request was answered.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info({ req, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
    done();
  });

  installErrorHandling(app);

  // After validation (and Ajv's coercion), before any handler: no Infinity reaches a route.
  // Only where Ajv can have made a number: a query string, a body, path parameters (a request
  // without a query string has an empty query object; one without a body has none).
  app.addHook('preHandler', (req, _reply, done) => {
    const field =
      (req.url.includes('?') ? nonFiniteField(req.query, 'query') : undefined) ??
      nonFiniteField(req.params, 'params') ??
      (req.body === undefined ? undefined : nonFiniteField(req.body, 'body'));
    done(field ? new HttpError(400, 'VALIDATION_FAILED', {}, [{ field, problem: 'finite' }]) : undefined);
  });

  // Security headers (decision 004): the same headers helmet makes from these options, computed
  // once at start instead of by @fastify/helmet on every request (decision 064).
  const security = securityHeaders(helmetOptions(config));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(security);
    done();
  });

  // x-internal: false: the one server is the public one (the OWASP ruleset asks each server's audience).
  const publicServer = { url: '/', 'x-internal': false };
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Greetie API',
        version: '1.0.0',
        description: 'The HTTP contract of Greetie (shared/API.md). Errors always have the ErrorBody shape.',
        // Not open source; SPDX's LicenseRef- form names a license outside its list.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        // Whom to write about the API: the seller (SELLER_* settings, GET /api/seller).
        contact: { name: config.seller.name, email: config.seller.email },
      },
      servers: [publicServer],
      // Every tag an operation uses, described (the sandbox's only while it is on).
      tags: TAGS.filter((t) => config.sandbox || t.name !== 'Sandbox'),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'The access token from /auth/login or /auth/refresh: a JWT signed with HS256, checked as RFC8725 (JWT Best Current ' +
              'Practices) asks: the one algorithm the server signs with, never `none`; `exp` required; valid 15 minutes.',
          },
        },
      },
    },
    // Shared schemas (ErrorBody, the named shapes of contract/components.ts) and the ones nested in
    // routes become components named by their $id, the names a client generator gives its types.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // What the document says beyond the route schemas, by rules for every route (server/openapi.ts).
    transform: transformRoute,
  });
  app.addSchema(ErrorBody);
  await app.register(openapiComponents);

  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => api.swagger());
      await api.register(swaggerUi, {
        routePrefix: '/docs',
        staticCSP: true,
        transformStaticCSP: (header) => header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
        uiConfig: { docExpansion: 'list', deepLinking: true },
      });
      await api.register(apiRoutes);
      if (config.sandbox) await api.register(sandboxRoutes, { prefix: '/sandbox' });
    },
    { prefix: '/api' },
  );

  // index.html with the entry's stylesheets inlined, prepared once (server/spa/shell.ts, decision 094).
  const pages = existsSync(path.join(config.staticDir, 'index.html')) ? createSpaPages(config.staticDir) : undefined;
  if (pages) {
    await app.register(fastifyStatic, {
      root: config.staticDir,
      prefix: '/',
      preCompressed: true,
      cacheControl: false,
      // '/' is index.html as prepared below (its stylesheets inlined, the landing's first screen).
      index: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(path.relative(config.staticDir, filePath).split(path.sep).join('/')));
      },
    });
    // The greetie a recipient opens: index.html with its first frame (server/spa/viewShell.ts,
    // decision 090); an unknown or undelivered ref, or ?byId=true, gets the plain file.
    const viewShell = createViewShell(pages.plain.html, deps.db);
    app.get<{ Params: { refId: string }; Querystring: Record<string, string | string[] | undefined> }>(
      '/greetie/view/:refId',
      { schema: { hide: true } },
      async (req, reply) => {
        if (req.query.byId !== 'true' && (await viewShell.send(req.params.refId, req, reply))) return reply;
        return sendHtml(req, reply, pages.plain);
      },
    );
    // '/', '/merchant' and '/auth/jwt/login' with their first screen painted from the HTML
    // (server/spa/firstScreens.ts, decision 094).
    for (const [routePath, screen] of Object.entries(FIRST_SCREEN_PATHS)) {
      const page = pages.firstScreens[screen] ?? pages.plain;
      app.get(routePath, { schema: { hide: true } }, (req, reply) => sendHtml(req, reply, page));
    }
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/')) return sendError(req, reply, 404, 'ROUTE_NOT_FOUND');
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(req, reply, 404, 'ROUTE_NOT_FOUND');
    // A missing hashed asset must be a 404, not index.html served as JavaScript.
    if (pathname.startsWith('/assets/')) return sendError(req, reply, 404, 'NOT_FOUND');
    if (!pages) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send('Appen är inte byggd. Kör "npm run build" (eller "npm start").');
    }
    // Client-side routes: the SPA decides (and shows /404 for paths it does not know).
    return sendHtml(req, reply, pages.plain);
  });

  return app;
}
