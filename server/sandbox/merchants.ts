import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SandboxMerchant } from '../../contract/merchant.ts';
import { publicAccess } from '../access.ts';
import { demoMerchants } from '../merchant/seed.ts';
import { verifyMerchantCode } from '../merchant/code.ts';
import { merchantCodeHashes } from '../merchant/queries.ts';
import { errorResponses } from '../../contract/common.ts';

/**
 * GET /api/sandbox/merchants: the demo catalogue's merchant codes, so a person can redeem a demo
 * gift at a pretend till. The codes come from the seed source (demo data); the database only has
 * their hashes. A demo merchant is listed only while it exists and its code is still the demo
 * code (an operator may have set a real one with `npm run admin -- merchant set-code`).
 */
const stillDemo = new Map<string, Promise<boolean>>();

function matchesDemoCode(code: string, hash: string): Promise<boolean> {
  const key = `${code}\u0000${hash}`;
  let known = stillDemo.get(key);
  if (!known) {
    known = verifyMerchantCode(code, hash);
    stillDemo.set(key, known);
  }
  return known;
}

export const sandboxMerchantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/merchants',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listSandboxMerchants',
        tags: ['Sandbox'],
        summary: "The demo merchants' merchant codes (sandbox only)",
        description: 'The demo catalogue\'s merchants with their merchant codes, for demos and tests at the till.',
        response: { 200: Type.Array(SandboxMerchant), ...errorResponses(404) },
      },
    },
    async () => {
      const rows = await merchantCodeHashes(
        app.db,
        demoMerchants.map((m) => m.id),
      );
      const byId = new Map(demoMerchants.map((m) => [m.id, m]));
      const listed = await Promise.all(
        rows.map(async (r) => {
          const demo = byId.get(r.id)!;
          return (await matchesDemoCode(demo.merchantCode, r.code_hash)) ? { id: r.id, name: r.name, merchantCode: demo.merchantCode } : null;
        }),
      );
      return listed.filter((m) => m !== null);
    },
  );
};
