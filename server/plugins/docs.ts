import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody } from '../../contract/common.ts';
import type { Config } from '../config.ts';
import { openapiComponents, TAGS, transformRoute } from '../openapi.ts';

/**
 * The OpenAPI document, built by @fastify/swagger from every route's schema (decisions 007, 063).
 * Registered on the root before the routes, so it sees them all.
 */
const openapiDocument: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
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
};

export default fp(openapiDocument, { name: 'greetie-openapi-document' });

/** GET openapi.json and the Swagger UI at docs/, registered under /api. */
export const docsRoutes: FastifyPluginAsync = async (api) => {
  api.get('/openapi.json', { schema: { hide: true } }, async () => api.swagger());
  await api.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
};
