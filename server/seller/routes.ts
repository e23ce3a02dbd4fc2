import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../contract/common.ts';
import { Seller } from '../../contract/seller.ts';
import { publicAccess } from '../access.ts';

/**
 * Who sells (settings SELLER_NAME, SELLER_ORG_NUMBER, SELLER_EMAIL): public, so the terms
 * (/villkor), the privacy policy (/integritet) and the receipt show the same company.
 */
export const sellerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const seller: Seller = { ...app.config.seller };
  app.get(
    '/seller',
    {
      schema: {
        ...publicAccess(200, 'Public: the seller is named on every page that sells'),
        operationId: 'getSeller',
        tags: ['Seller'],
        summary: 'The company that sells the vouchers',
        description: 'Company name, organisation number and contact e-mail, from the settings. Cached for an hour.',
        response: { 200: Seller, ...errorResponses(400) },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=3600');
      return seller;
    },
  );
};
