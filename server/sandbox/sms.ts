import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SandboxSms, SandboxSmsQuery } from '../../contract/sandbox.ts';
import { errorResponses } from '../../contract/common.ts';
import { publicAccess } from '../access.ts';
import { readSandboxOutbox } from '../providers/sms/sandbox.ts';
import { normaliseSwedishMobile } from '../auth/phone.ts';

/** GET /api/sandbox/sms: the SMS the sandbox outbox kept, newest first (the last 100). */
export const sandboxSmsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/sms',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listSandboxSms',
        tags: ['Sandbox'],
        summary: 'The SMS that would have been sent, newest first',
        description: 'The SMS the sandbox kept instead of sending (sign-in codes, delivery links), newest first; `to` filters by number in any Swedish form.',
        querystring: SandboxSmsQuery,
        response: { 200: Type.Array(SandboxSms), ...errorResponses(400, 404) },
      },
    },
    async (req) => {
      const raw = req.query.to?.trim();
      // Any form of a number finds its messages; anything else simply matches nothing.
      const to = raw ? (normaliseSwedishMobile(raw) ?? raw) : undefined;
      const rows = await readSandboxOutbox(app.db, { to });
      return rows.map((r) => ({ to: r.to, body: r.body, sentAt: r.sentAt.toISOString() }));
    },
  );
};
