import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses } from '../../contract/common.ts';
import { Merchant, MerchantListQuery, MerchantPage, NotModified, Product, catalogueAnswer } from '../../contract/merchant.ts';
import { notFound } from '../errors.ts';
import { publicAccess } from '../access.ts';
import { matchesIfNoneMatch, type CachedAnswer } from './cache.ts';
import { pageByQuery, searchPageAnswer } from './search-pages.ts';
import { activeMerchant, allMerchants, merchantProducts, pageRequest } from './rules.ts';

/**
 * The public catalogue (API.md, "Merchant (public)"). Answers come from a read-through cache and
 * carry an ETag; a matching If-None-Match gets 304. Clients revalidate every time (max-age=0), so
 * a change reaches people at once while an unchanged catalogue costs a 304.
 */
export const CATALOGUE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

function send(req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', CATALOGUE_CACHE_CONTROL);
  if (matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}


export const merchantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Made by buildApp, which opens its listening connection when ready and closes it on close.
  const cache = app.catalogueCache;

  app.get(
    '/merchant',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listMerchants',
        tags: ['Merchant'],
        summary: 'Every active merchant, in name order',
        description: 'The active merchants, without paging. Answered from the catalogue cache with an ETag; a matching If-None-Match is 304. A merchant\'s merchant code is never part of it.',
        response: { 200: catalogueAnswer(Type.Array(Merchant)), 304: NotModified, ...errorResponses(400, 500) },
      },
    },
    async (req, reply) => {
      const answer = await cache.read('merchant', () => allMerchants(app.db));
      return send(req, reply, answer!);
    },
  );

  app.get(
    '/merchant/v2',
    {
      schema: {
        ...publicAccess(),
        operationId: 'searchMerchants',
        tags: ['Merchant'],
        summary: 'Search and page through active merchants',
        description:
          '`q` matches words in the name, description, category, city and active products\' names regardless of case and accents ("cafe" finds "Café", "fika" finds the café selling "Fika för två"); a merchant found through a product names it in `matchedProduct`. ' +
          'Pages follow name order; pass `nextCursor` back as `cursor` for the next page.',
        querystring: MerchantListQuery,
        response: { 200: catalogueAnswer(MerchantPage), 304: NotModified, ...errorResponses(400, 500) },
      },
    },
    async (req, reply) => {
      const page = pageRequest(req.query);
      // A search's pages are cut from its hits held in memory (./search-pages.ts, decision 151).
      if (page.words.length > 0) return send(req, reply, await searchPageAnswer(app.db, cache, page));
      return send(req, reply, (await pageByQuery(app.db, cache, page))!);
    },
  );

  app.get(
    '/merchant/:id',
    {
      schema: {
        ...publicAccess(),
        operationId: 'getMerchant',
        tags: ['Merchant'],
        summary: 'One active merchant',
        description: 'One active merchant by id; an inactive or unknown one is 404. ETag and 304 as for the list.',
        params: IdParams,
        response: { 200: catalogueAnswer(Merchant), 304: NotModified, ...errorResponses(400, 404, 500) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const answer = await cache.read(`merchant:${id.toLowerCase()}`, () => activeMerchant(app.db, id));
      if (!answer) throw notFound('MERCHANT_NOT_FOUND');
      return send(req, reply, answer);
    },
  );

  app.get(
    '/merchant/:id/products',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listMerchantProducts',
        tags: ['Merchant'],
        summary: "An active merchant's products, cheapest first",
        description: 'The products of an active merchant, cheapest first: a fixed `price` or a `minAmount`/`maxAmount` range, in öre. ETag and 304 as for the list; 404 for an inactive or unknown merchant.',
        params: IdParams,
        response: { 200: catalogueAnswer(Type.Array(Product)), 304: NotModified, ...errorResponses(400, 404, 500) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const answer = await cache.read(`products:${id.toLowerCase()}`, () => merchantProducts(app.db, id));
      if (!answer) throw notFound('MERCHANT_NOT_FOUND');
      return send(req, reply, answer);
    },
  );
};
