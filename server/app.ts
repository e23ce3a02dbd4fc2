import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { Db } from './db/index.ts';
import type { Services } from './services.ts';
import { createSmsSender } from './providers/sms/index.ts';
import { createStorage } from './providers/storage/index.ts';
import { createMediaCleanup } from './media/rules.ts';
import { HttpError, clientErrorHandler, frameworkErrors, installErrorHandling, nonFiniteField, sendError } from './errors.ts';
import { apiRoutes, sandboxRoutes } from './routes.ts';
import { ErrorBody } from '../contract/common.ts';

export interface AppDeps {
  db: Db;
  /** Replace services (clock, SMS gateway…) in tests. */
  services?: Partial<Services>;
  /** Extra pino options; tests pass a stream to read what was logged. */
  logger?: FastifyServerOptions['logger'];
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
  if (q === -1) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const keys = [...new Set(params.keys())];
  return `${url.slice(0, q)}?${keys.map((k) => `${encodeURIComponent(k)}=[redacted]`).join('&')}`;
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

/** Hashed assets never change; index.html must be revalidated so a deploy reaches everyone. */
export function cacheControlFor(relativePath: string): string {
  if (relativePath.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (relativePath === 'index.html' || relativePath.startsWith('index.html.')) return 'no-cache';
  return 'public, max-age=3600';
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config),
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
  app.decorate('services', services);

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  // Shutting down (decision 002): an answer still being made when close begins goes out with
  // `Connection: close`, so its keep-alive connection ends with it. Otherwise that connection
  // would stay open, idle, for the keep-alive timeout, and hold close() up long after the last
  // request was answered.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ req, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
  });

  installErrorHandling(app);

  // After validation (and Ajv's coercion), before any handler: no Infinity reaches a route.
  app.addHook('preHandler', async (req) => {
    const field = nonFiniteField(req.query, 'query') ?? nonFiniteField(req.params, 'params') ?? nonFiniteField(req.body, 'body');
    if (field) throw new HttpError(400, 'VALIDATION_FAILED', {}, [{ field, problem: 'finite' }]);
  });

  const https = config.publicUrl.startsWith('https:');
  // Google Analytics origins, only when a measurement id is configured (the SPA still loads the
  // tracker only after consent: src/app/analytics.ts).
  const ga = config.analyticsId
    ? { script: ['https://www.googletagmanager.com'], connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com'] }
    : { script: [], connect: [] };
  await app.register(helmet, {
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
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Greetie API',
        version: '1.0.0',
        description: 'The HTTP contract of Greetie (shared/API.md). Errors always have the ErrorBody shape.',
        // Not open source; SPDX's LicenseRef- form names a license outside its list.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    // Shared schemas (ErrorBody) and the ones nested in routes (Merchant, Product) become
    // components named by their $id, the names a client generator gives its types.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  app.addSchema(ErrorBody);

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

  const indexFile = path.join(config.staticDir, 'index.html');
  const hasSpa = existsSync(indexFile);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: config.staticDir,
      prefix: '/',
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(path.relative(config.staticDir, filePath).split(path.sep).join('/')));
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/')) return sendError(req, reply, 404, 'ROUTE_NOT_FOUND');
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(req, reply, 404, 'ROUTE_NOT_FOUND');
    // A missing hashed asset must be a 404, not index.html served as JavaScript.
    if (pathname.startsWith('/assets/')) return sendError(req, reply, 404, 'NOT_FOUND');
    if (!hasSpa) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send('Appen är inte byggd. Kör "npm run build" (eller "npm start").');
    }
    // Client-side routes: the SPA decides (and shows /404 for paths it does not know).
    return reply.sendFile('index.html');
  });

  return app;
}
