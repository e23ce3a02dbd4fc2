import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SandboxPush, SandboxPushQuery } from '../../contract/notification.ts';
import { errorResponses } from '../../contract/common.ts';
import { publicAccess } from '../access.ts';
import { readSandboxPush } from '../providers/push/sandbox.ts';

/** GET /api/sandbox/push: the pushes the sandbox outbox kept, newest first (the last 100). */
export const sandboxPushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/push',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listSandboxPush',
        tags: ['Sandbox'],
        summary: 'The pushes that would have been sent, newest first',
        description: 'The pushes the sandbox kept instead of sending, newest first; `userId` filters by recipient.',
        querystring: SandboxPushQuery,
        response: { 200: Type.Array(SandboxPush), ...errorResponses(400, 404) },
      },
    },
    async (req) => {
      const rows = await readSandboxPush(app.db, { userId: req.query.userId });
      return rows.map((r) => ({ to: r.to, title: r.title, body: r.body, data: r.data, sentAt: r.sentAt.toISOString() }));
    },
  );
};
