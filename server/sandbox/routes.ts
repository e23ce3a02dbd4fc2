import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { publicAccess } from '../access.ts';
import { errorResponses } from '../../contract/common.ts';
import { SandboxStatus } from '../../contract/sandbox.ts';

/**
 * GET /api/sandbox: lets the SPA know the sandbox is on (the /sandbox and /flows pages show only
 * then). Like every sandbox path, it answers 404 when SANDBOX=off because the whole prefix is
 * not registered.
 */
export const sandboxIndexRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      schema: {
        ...publicAccess(),
        operationId: 'getSandbox',
        tags: ['Sandbox'],
        summary: 'Whether the sandbox is on (404 when it is off)',
        description: '`{ enabled: true }` while SANDBOX is on; the SPA shows the /sandbox and /flows pages only then. With SANDBOX=off the path, like all of /api/sandbox, is 404 and absent from this document.',
        response: { 200: SandboxStatus, ...errorResponses(404) },
      },
    },
    async () => ({ enabled: true as const }),
  );
};
