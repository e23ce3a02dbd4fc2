import { Type, type Static } from 'typebox';
import { DateTime, LinkNext, Ore, Uuid, answer } from './common.ts';
import { QR_TOKEN_LENGTH, RedemptionVia } from './voucher.ts';

/**
 * The merchant portal (API.md "Merchant portal"): the people who work for a merchant (its owner
 * and staff, linked by the operator) see what was redeemed there and what is owed, and the owner
 * downloads the settlement file and changes the till code.
 */

export const MERCHANT_ROLES = ['owner', 'staff'] as const;
export const MerchantRole = Type.Union([Type.Literal('owner'), Type.Literal('staff')], {
  title: 'MerchantRole',
  description: '"owner": every portal call, the settlement file and a new till code too; "staff": the summary and the redemptions',
});
export type MerchantRole = Static<typeof MerchantRole>;

/** A merchant the caller works for (MobileUser.merchants, GET /portal/merchants). */
export const PortalMerchant = Type.Object(
  { id: Uuid, name: Type.String(), role: MerchantRole },
  { $id: 'PortalMerchant', title: 'PortalMerchant' },
);
export type PortalMerchant = Static<typeof PortalMerchant>;

const Figure = (description: string) =>
  Type.Object({ count: Type.Integer({ minimum: 0 }), amount: Ore }, { description, additionalProperties: false });

/** GET /portal/merchants/{id}/summary. */
export const PortalSummary = Type.Object(
  {
    issued: Figure("This merchant's vouchers paid within the period (issued then), not cancelled and not donated away: how many, and their amounts"),
    redeemed: Figure('Redemptions at this merchant within the period, undone ones left out: how many, and their amounts'),
    outstanding: Figure('Unexpired vouchers with a balance now: how many, and their balances (what Greetie owes the merchant once redeemed)'),
    expired: Figure('Expired vouchers with a balance: how many, and what was left on them'),
  },
  { $id: 'PortalSummary', title: 'PortalSummary' },
);
export type PortalSummary = Static<typeof PortalSummary>;

/** One redemption at the merchant (GET /portal/merchants/{id}/redemptions). */
export const PortalRedemption = Type.Object(
  {
    id: Uuid,
    voucherId: Uuid,
    productName: Type.String({ description: "The product's name when it was redeemed (a later rename leaves it as it was)" }),
    amount: Ore,
    redeemedAt: DateTime,
    via: RedemptionVia,
    undone: Type.Boolean({ description: 'Undone within 10 minutes: the amount went back on the voucher (not counted as redeemed)' }),
  },
  { $id: 'PortalRedemption', title: 'PortalRedemption' },
);
export type PortalRedemption = Static<typeof PortalRedemption>;

export const PORTAL_PAGE_MAX = 100;
export const PORTAL_PAGE_DEFAULT = 50;

/** A Europe/Stockholm day, `2026-11-26`: that day's start there. */
const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date', description });

export const PortalPeriodQuery = Type.Object(
  {
    from: Type.Optional(Day('The first day (Europe/Stockholm), from its start; absent: from the beginning')),
    to: Type.Optional(Day('The day after the last (Europe/Stockholm): up to its start, not included; absent: until now')),
  },
  { additionalProperties: false },
);
export type PortalPeriodQuery = Static<typeof PortalPeriodQuery>;

export const PortalRedemptionsQuery = Type.Object(
  {
    ...PortalPeriodQuery.properties,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: PORTAL_PAGE_MAX, default: PORTAL_PAGE_DEFAULT })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'From the previous answer\'s `Link: <…>; rel="next"` header (opaque)' })),
  },
  { additionalProperties: false },
);
export type PortalRedemptionsQuery = Static<typeof PortalRedemptionsQuery>;

export const PortalRedemptionList = answer(Type.Array(PortalRedemption), {
  description: 'A page of redemptions, newest first',
  headers: { Link: LinkNext },
});

/** POST /portal/merchants/{id}/code: the new till code, shown this once. */
export const MerchantCodeAnswer = Type.Object(
  { merchantCode: Type.String({ pattern: '^[A-Z0-9]{4,16}$', description: 'The new till code; only its hash is kept, so it is never shown again' }) },
  { $id: 'MerchantCodeAnswer', title: 'MerchantCodeAnswer' },
);
export type MerchantCodeAnswer = Static<typeof MerchantCodeAnswer>;

/** GET /portal/merchants/{id}/redemptions.csv: the settlement file. */
export const SettlementCsvAnswer = {
  description:
    'The settlement file: UTF-8 with a BOM, semicolon-separated, a Swedish header row, one row per redemption (undone ones ' +
    'included, marked in `Ångrad`), amounts in kronor with a decimal comma ("149,00") — what Excel opens in Sweden',
  headers: { 'Content-Disposition': Type.String({ description: '`attachment; filename="…csv"`' }) },
  content: { 'text/csv': { schema: Type.String({ description: 'CSV (RFC 4180 quoting, `;` between fields, CRLF between rows)' }) } },
};

/**
 * Till mode's wrong tokens (a token no voucher of this merchant has now): after this many by one
 * person at one merchant within TOKEN_LOCK_MINUTES, every token there is 429 TOKEN_LOCKED with
 * Retry-After until the oldest leaves the window (decision 106).
 */
export const TOKEN_MAX_WRONG = 10;
export const TOKEN_LOCK_MINUTES = 15;

const TokenField = Type.String({
  minLength: 1,
  maxLength: 40,
  description:
    `The token of the customer's voucher QR, scanned or typed: ${QR_TOKEN_LENGTH} characters of A–Z and 2–9 (case, spaces and dashes ` +
    'do not matter); anything else is 400 VALIDATION_FAILED',
});

/** POST /portal/merchants/{id}/scan */
export const ScanBody = Type.Object({ token: TokenField }, { additionalProperties: false });
export type ScanBody = Static<typeof ScanBody>;

/** POST /portal/merchants/{id}/redeem */
export const TillRedeemBody = Type.Object(
  {
    token: TokenField,
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description:
          'Öre to use, for a "value" voucher: at most its balance (more is 409 VOUCHER_BALANCE_TOO_LOW); absent: the whole balance. ' +
          'A "fixed" voucher is used whole: any other amount is 400 AMOUNT_NOT_ALLOWED. A refused amount leaves the token usable',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TillRedeemBody = Static<typeof TillRedeemBody>;

/** POST /portal/merchants/{id}/redemptions/{redemptionId}/undo */
export const PortalUndoParams = Type.Object({ id: Uuid, redemptionId: Uuid });
export type PortalUndoParams = Static<typeof PortalUndoParams>;
