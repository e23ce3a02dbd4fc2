import { sql } from 'kysely';
import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Health } from '../../contract/health.ts';
import { ErrorBody, errorResponses } from '../../contract/common.ts';
import { requestLanguage, translate } from '../i18n/index.ts';
import { publicAccess } from '../access.ts';

const Unhealthy = Type.Intersect([Health, ErrorBody], { description: 'The database is not answering' });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      schema: {
        ...publicAccess(),
        operationId: 'getHealth',
        tags: ['Health'],
        summary: 'Liveness and database reachability',
        description: '200 `{ status: "ok", db: "ok" }` when the database answers a query; 503 with the error body otherwise. Used by load balancers and the process supervisor.',
        response: { 200: Health, ...errorResponses(400), 503: Unhealthy },
      },
    },
    async (req, reply) => {
      try {
        await sql`SELECT 1`.execute(app.db);
        return { status: 'ok' as const, db: 'ok' as const };
      } catch (err) {
        req.log.warn({ err }, 'health check: database not answering');
        return reply.code(503).send({
          status: 'error' as const,
          db: 'error' as const,
          code: 'DB_UNAVAILABLE',
          message: translate('DB_UNAVAILABLE', requestLanguage(req)),
        });
      }
    },
  );
};
