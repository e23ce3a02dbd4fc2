import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SandboxMerchant } from '../../contract/merchant.ts';
import { publicAccess } from '../access.ts';
import { demoMerchants, demoOwnerNumber } from '../merchant/seed.ts';
import { verifyMerchantCode } from '../merchant/code.ts';
import { merchantCodeHashes } from '../merchant/queries.ts';
import { errorResponses } from '../../contract/common.ts';

/**
 * GET /api/sandbox/merchants: the demo catalogue's merchant codes, so a person can redeem a demo
 * gift at a pretend till, and each demo merchant's owner's number, so a person can sign in as the
 * owner and walk the merchant portal. The codes come from the seed source (demo data); the
 * database only has their hashes. Every demo merchant that exists is listed; its `merchantCode`
 * is null once its code is no longer the demo code (the owner changed it in the portal, or an
 * operator with `npm run admin -- merchant set-code`).
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
        summary: "The demo merchants' merchant codes and owners' numbers (sandbox only)",
        description:
          "The demo catalogue's merchants with their merchant codes (null once changed), for demos and tests at the till, and each " +
          "one's owner's mobile number, which signs in through the sandbox SMS like any other.",
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
          const unchanged = await matchesDemoCode(demo.merchantCode, r.code_hash);
          return { id: r.id, name: r.name, merchantCode: unchanged ? demo.merchantCode : null, ownerNumber: demoOwnerNumber(demo) };
        }),
      );
      return listed;
    },
  );
};
