import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, errorResponses } from '../../contract/common.ts';
import {
  MerchantCodeAnswer,
  PORTAL_PAGE_MAX,
  PortalMerchant,
  PortalPeriodQuery,
  PortalRedemptionList,
  PortalRedemptionsQuery,
  PortalSummary,
  SettlementCsvAnswer,
} from '../../contract/portal.ts';
import { access } from '../access.ts';
import { settlementCsv } from './csv.ts';
import { allRedemptions, myMerchants, periodOf, redemptions, requireRole, rotateCode, summary } from './rules.ts';

/**
 * The merchant portal (API.md "Merchant portal"): signed in, for the people who work for the
 * merchant in the path. The matrix's owner is the merchant's owner; anybody who does not work for
 * it gets 404; staff get 403 OWNER_ONLY on the owner's calls (tests/server/portal/access.test.ts).
 */
export const portalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, services: app.services };
  const tags = ['Merchant portal'];
  const members = access({ visitor: 401, owner: 200, other: 404, note: "The merchant's owner and staff; anybody who does not work for it gets 404" });
  const ownerOnly = (status: 200 | 201 = 200) =>
    access({ visitor: 401, owner: status, other: 404, note: "The merchant's owner; its staff get 403 OWNER_ONLY, anybody else 404" });

  app.get(
    '/portal/merchants',
    {
      preHandler: app.authenticate,
      schema: {
        ...access({ visitor: 401, owner: 200, other: 200, note: 'The merchants the caller works for (empty for most): nothing of anybody else is named' }),
        operationId: 'listPortalMerchants',
        tags,
        summary: 'The merchants the caller works for',
        description: 'Each with the caller\'s role there ("owner" or "staff"), by name; empty for most people.',
        response: { 200: Type.Array(PortalMerchant), ...errorResponses(401) },
      },
    },
    async (req) => myMerchants(req.signedInUser),
  );

  app.get(
    '/portal/merchants/:id/summary',
    {
      preHandler: app.authenticateToken,
      schema: {
        ...members,
        operationId: 'getPortalSummary',
        tags,
        summary: "What was issued and redeemed at the merchant, what is outstanding and what expired",
        description:
          'In öre, for this merchant\'s vouchers. `issued`: vouchers paid within the period, not cancelled and not donated away; ' +
          '`redeemed`: redemptions within the period, undone ones left out (a partial redemption counts with its amount); ' +
          '`outstanding`: unexpired vouchers with a balance now, and those balances; `expired`: expired vouchers with a balance, and ' +
          'what was left on them. `from` and `to` are Europe/Stockholm days, the period [from\'s start, to\'s start); each optional ' +
          '(`to` before `from`: 400 PERIOD_INVALID).',
        params: IdParams,
        querystring: PortalPeriodQuery,
        response: { 200: PortalSummary, ...errorResponses(400, 401, 404) },
      },
    },
    async (req) => summary(deps, req.userId, req.params.id, req.query),
  );

  app.get(
    '/portal/merchants/:id/redemptions',
    {
      preHandler: app.authenticateToken,
      schema: {
        ...members,
        operationId: 'listPortalRedemptions',
        tags,
        summary: 'The redemptions at the merchant, newest first',
        description:
          `Undone ones too (\`undone: true\`). \`from\`/\`to\` as for the summary; \`limit\` (≤ ${PORTAL_PAGE_MAX}, default 50). ` +
          'When more follow, the answer has a `Link: </api/portal/merchants/{id}/redemptions?…&cursor=…>; rel="next"` header.',
        params: IdParams,
        querystring: PortalRedemptionsQuery,
        response: { 200: PortalRedemptionList, ...errorResponses(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const page = await redemptions(deps, req.userId, req.params.id, req.query);
      if (page.nextCursor) {
        const next = new URLSearchParams();
        if (req.query.from) next.set('from', req.query.from);
        if (req.query.to) next.set('to', req.query.to);
        next.set('limit', String(page.limit));
        next.set('cursor', page.nextCursor);
        reply.header('link', `</api/portal/merchants/${req.params.id}/redemptions?${next.toString()}>; rel="next"`);
      }
      // PostgreSQL wrote the answer's JSON (decision 144), handed over as bytes (decision 155): a
      // Buffer with a JSON content type is sent as it is, not serialized again (so the plain reply
      // type, as for the settlement file).
      return (reply as unknown as FastifyReply).type('application/json; charset=utf-8').send(page.json);
    },
  );

  app.get(
    '/portal/merchants/:id/redemptions.csv',
    {
      preHandler: app.authenticate,
      schema: {
        ...ownerOnly(),
        operationId: 'getPortalSettlementCsv',
        tags,
        summary: 'The settlement file: every redemption of the period as CSV for Excel',
        description:
          'UTF-8 with a BOM, semicolon-separated, CRLF, a Swedish header row (Inlöst (svensk tid); Inlösen-id; Presentkort-id; Produkt; ' +
          'Belopp; Sätt; Ångrad), one row per redemption newest first, undone ones included and marked `Ja` in `Ångrad`, amounts in ' +
          'kronor with a decimal comma ("149,00"). `from`/`to` as for the summary. The owner only: staff get 403 OWNER_ONLY.',
        params: IdParams,
        querystring: PortalPeriodQuery,
        response: { 200: SettlementCsvAnswer, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const period = periodOf(req.query);
      requireRole(req.signedInUser, req.params.id, 'owner');
      const name = `inlosen-${period.from ?? 'start'}-${period.to ?? 'nu'}.csv`;
      // A stream of bytes, not a serialized body: the plain reply type (as the media files are sent).
      const raw = reply as unknown as FastifyReply;
      raw
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, no-store');
      return raw.send(settlementCsv(allRedemptions(app.db, req.params.id, period)));
    },
  );

  app.post(
    '/portal/merchants/:id/code',
    {
      preHandler: app.authenticate,
      schema: {
        ...ownerOnly(),
        operationId: 'rotatePortalMerchantCode',
        tags,
        summary: 'A new till code for the merchant; the old one stops working at once',
        description:
          'No body. The new code is in this answer only (it is stored as a hash, like every merchant code); from this moment the ' +
          'old code is wrong at every till and in every server process. The owner only: staff get 403 OWNER_ONLY.',
        params: IdParams,
        response: { 200: MerchantCodeAnswer, ...errorResponses(401, 403, 404) },
      },
    },
    async (req, reply) => {
      const answer = await rotateCode(deps, req.signedInUser, req.params.id);
      reply.header('cache-control', 'no-store');
      return answer;
    },
  );
};
