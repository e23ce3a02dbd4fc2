import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../contract/common.ts';
import { Merchant, MerchantListQuery, MerchantPage, Product, type MerchantListQuery as ListQuery } from '../../contract/merchant.ts';
import { badRequest, notFound } from '../errors.ts';
import { publicAccess } from '../access.ts';
import { CatalogueCache, matchesIfNoneMatch, type CachedAnswer } from './cache.ts';
import { findActiveMerchant, listActiveMerchants, listActiveProducts, listMerchantPage, type Keyset } from './queries.ts';
import { isUuid } from './rules.ts';

/**
 * The public catalogue (API.md, "Merchant (public)"). Answers come from a read-through cache and
 * carry an ETag; a matching If-None-Match gets 304. Clients revalidate every time (max-age=0), so
 * a change reaches people at once while an unchanged catalogue costs a 304.
 */
export const CATALOGUE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/**
 * Strict UUID (the shared `format: uuid` also admits a `urn:uuid:` prefix, which PostgreSQL
 * would refuse with an error instead of a clean 400).
 */
const MerchantIdParams = Type.Object({
  id: Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description: 'UUID' }),
});

const MAX_WORDS = 8;

/** The cursor is opaque to clients: base64url of `[name, id]`, the last row's keyset. */
export function encodeCursor(k: Keyset): string {
  return Buffer.from(JSON.stringify([k.name, k.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): Keyset {
  const invalid = () => badRequest('INVALID_CURSOR');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [name, id] = value as unknown[];
  if (typeof name !== 'string' || name.length > 200 || name.includes('\u0000') || typeof id !== 'string' || !isUuid(id)) {
    throw invalid();
  }
  return { name, id };
}

/** The words of a search: at most 8, each at most 100 characters, without NUL. */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return q
    .replaceAll('\u0000', ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_WORDS);
}

function send(req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', CATALOGUE_CACHE_CONTROL);
  if (matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

export const merchantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new CatalogueCache(app.db);

  app.get(
    '/merchant',
    {
      schema: {
        ...publicAccess(),
        tags: ['Merchant'],
        summary: 'Every active merchant, in name order',
        response: { 200: Type.Array(Merchant), 304: Type.Null(), ...errorResponses(500) },
      },
    },
    async (req, reply) => {
      const answer = await cache.read('merchant', () => listActiveMerchants(app.db));
      return send(req, reply, answer!);
    },
  );

  app.get(
    '/merchant/v2',
    {
      schema: {
        ...publicAccess(),
        tags: ['Merchant'],
        summary: 'Search and page through active merchants',
        description:
          '`q` matches words in the name and description regardless of case and accents ("cafe" finds "Café"). ' +
          'Pages follow name order; pass `nextCursor` back as `cursor` for the next page.',
        querystring: MerchantListQuery,
        response: { 200: MerchantPage, 304: Type.Null(), ...errorResponses(400, 500) },
      },
    },
    async (req, reply) => {
      const query = req.query as ListQuery;
      const words = searchWords(query.q);
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const limit = query.limit ?? 24;
      const key = `v2:${JSON.stringify([words.join(' '), query.category ?? null, query.source ?? null, query.cursor ?? null, limit])}`;
      const answer = await cache.read(key, async () => {
        const rows = await listMerchantPage(app.db, { words, category: query.category, source: query.source, after, limit: limit + 1 });
        const items = rows.slice(0, limit);
        const last = items.at(-1);
        return { items, nextCursor: rows.length > limit && last ? encodeCursor({ name: last.name, id: last.id }) : null };
      });
      return send(req, reply, answer!);
    },
  );

  app.get(
    '/merchant/:id',
    {
      schema: {
        ...publicAccess(),
        tags: ['Merchant'],
        summary: 'One active merchant',
        params: MerchantIdParams,
        response: { 200: Merchant, 304: Type.Null(), ...errorResponses(400, 404, 500) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const answer = await cache.read(`merchant:${id.toLowerCase()}`, () => findActiveMerchant(app.db, id));
      if (!answer) throw notFound('MERCHANT_NOT_FOUND');
      return send(req, reply, answer);
    },
  );

  app.get(
    '/merchant/:id/products',
    {
      schema: {
        ...publicAccess(),
        tags: ['Merchant'],
        summary: "An active merchant's products, cheapest first",
        params: MerchantIdParams,
        response: { 200: Type.Array(Product), 304: Type.Null(), ...errorResponses(400, 404, 500) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const answer = await cache.read(`products:${id.toLowerCase()}`, async () => {
        const merchant = await findActiveMerchant(app.db, id);
        return merchant ? listActiveProducts(app.db, merchant.id) : null;
      });
      if (!answer) throw notFound('MERCHANT_NOT_FOUND');
      return send(req, reply, answer);
    },
  );
};
