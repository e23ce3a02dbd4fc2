import { Type, type Static } from 'typebox';
import { DateTime, Ore, Uuid } from './common.ts';
import { MerchantAddress, MerchantSource } from './merchant.ts';

/**
 * Vouchers (API.md "Voucher"): one per gift of a paid greetie. They belong to the
 * person whose mobile number the greetie was sent to, once it is delivered (never before: a
 * scheduled greetie stays a surprise). The sender sees what was given, never a code.
 */

/** "fixed": the product has a fixed price (used whole); "value": a min/max product (used in parts). */
export const VoucherKind = Type.Union([Type.Literal('fixed'), Type.Literal('value')], {
  title: 'VoucherKind',
  description: '"fixed": the product has a fixed price and the voucher is used whole; "value": a min/max product, used in parts down to its balance',
});
export type VoucherKind = Static<typeof VoucherKind>;

/** How a redemption was made: the merchant's code typed at the till, or the till scanning the voucher's QR. */
export const RedemptionVia = Type.Union([Type.Literal('code'), Type.Literal('qr')], { title: 'RedemptionVia' });
export type RedemptionVia = Static<typeof RedemptionVia>;

/** One use of a voucher at a till. */
export const VoucherRedemption = Type.Object(
  {
    id: Uuid,
    amount: Ore,
    redeemedAt: DateTime,
    via: RedemptionVia,
    undone: Type.Boolean({ description: 'Undone within 10 minutes: the amount went back on the balance' }),
  },
  { $id: 'VoucherRedemption', title: 'VoucherRedemption' },
);
export type VoucherRedemption = Static<typeof VoucherRedemption>;

/** How long after a redemption the till may undo it. */
export const UNDO_MINUTES = 10;

export const Voucher = Type.Object(
  {
    id: Uuid,
    greetieId: Uuid,
    merchant: Type.Object({
      id: Uuid,
      name: Type.String(),
      logoUrl: Type.String(),
      address: Type.Optional(Type.Union([MerchantAddress, Type.Null()], { description: 'Where an InStore voucher is used; in lists and GET /voucher/{id}' })),
      openingHours: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "The merchant's opening hours; in lists and GET /voucher/{id}" })),
    }),
    product: Type.Object({
      id: Uuid,
      name: Type.String(),
      description: Type.Optional(Type.String({ description: 'What the gift is (the product\'s description); in lists and GET /voucher/{id}' })),
    }),
    senderName: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: "Who the gift is from: the sender's name (null when the sender has none or removed their account); in lists and GET /voucher/{id}" }),
    ),
    source: MerchantSource,
    amount: Ore,
    kind: VoucherKind,
    balance: Type.Integer({ minimum: 0, description: 'Öre still to use: amount until used, 0 once redeemed' }),
    redemptions: Type.Array(VoucherRedemption, { description: 'Oldest first; an undone one stays with `undone: true`' }),
    code: Type.Optional(Type.String({ description: 'Only for source "Code", only to its owner' })),
    isRedeemed: Type.Boolean({ description: 'The balance is 0' }),
    redeemedAt: Type.Union([DateTime, Type.Null()], { description: 'When the balance reached 0' }),
    expiresAt: Type.Union([DateTime, Type.Null()], {
      description: "The product's validDays counted from delivery; null until the greetie is delivered (only its sender sees it then)",
    }),
    createdAt: DateTime,
  },
  { $id: 'Voucher', title: 'Voucher' },
);
export type Voucher = Static<typeof Voucher>;

/** The longest merchant code a till may send; longer input is refused before any check (400). */
export const REDEEM_CODE_MAX_LENGTH = 64;

/** POST /voucher/redeem: the till staff type the merchant's code on the customer's phone. */
export const RedeemBody = Type.Object(
  {
    voucherId: Uuid,
    merchantCode: Type.String({
      maxLength: REDEEM_CODE_MAX_LENGTH,
      description: "The voucher's merchant's code, as the staff type it (case and surrounding spaces do not matter); empty is 400 MERCHANT_CODE_REQUIRED",
    }),
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description:
          'Öre to use, for a "value" voucher: at most its balance (more is 409 VOUCHER_BALANCE_TOO_LOW); absent: the whole balance. ' +
          'A "fixed" voucher is used whole: any other amount is 400 AMOUNT_NOT_ALLOWED',
      }),
    ),
  },
  { additionalProperties: false },
);
export type RedeemBody = Static<typeof RedeemBody>;

/** POST /voucher/{id}/redemptions/{redemptionId}/undo */
export const UndoParams = Type.Object({ id: Uuid, redemptionId: Uuid });
export type UndoParams = Static<typeof UndoParams>;

/** POST /voucher/{id}/redemptions/{redemptionId}/undo: the till staff type the merchant's code again. */
export const UndoBody = Type.Object(
  {
    merchantCode: Type.String({
      maxLength: REDEEM_CODE_MAX_LENGTH,
      description: "The voucher's merchant's code, as for the redeem; empty is 400 MERCHANT_CODE_REQUIRED",
    }),
  },
  { additionalProperties: false },
);
export type UndoBody = Static<typeof UndoBody>;

/** POST /voucher/{id}/donate */
export const DonateBody = Type.Object(
  { productId: Uuid },
  { additionalProperties: false },
);
export type DonateBody = Static<typeof DonateBody>;

/** POST /voucher/redeemed?id= */
export const RedeemedQuery = Type.Object({ id: Uuid }, { additionalProperties: false });
export type RedeemedQuery = Static<typeof RedeemedQuery>;

/** After this many wrong merchant codes for one voucher within REDEEM_LOCK_MINUTES, 429. */
export const REDEEM_MAX_WRONG = 5;
/** After this many wrong merchant codes by one person at one merchant (any of its vouchers) within REDEEM_LOCK_MINUTES, 429. */
export const REDEEM_MAX_WRONG_AT_MERCHANT = 10;
export const REDEEM_LOCK_MINUTES = 15;

/** The voucher's QR token (GET /voucher/{id}/qr): what it is made of and how long it lives. */
export const QR_TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789';
export const QR_TOKEN_LENGTH = 10;
export const QR_TOKEN_SECONDS = 120;
export const QR_TOKEN_PATTERN = '^[A-Z2-9]{10}$';

/** GET /voucher/{id}/qr: a one-time token for the till, shown as a QR code with the token as text under it. */
export const VoucherQr = Type.Object(
  {
    token: Type.String({
      pattern: QR_TOKEN_PATTERN,
      description: `${QR_TOKEN_LENGTH} characters of A–Z and 2–9 from a CSPRNG; the till scans it (or types it) once; a new call ends it at once`,
    }),
    expiresAt: Type.String({ format: 'date-time', description: `${QR_TOKEN_SECONDS} seconds after it was made` }),
  },
  { $id: 'VoucherQr', title: 'VoucherQr' },
);
export type VoucherQr = Static<typeof VoucherQr>;
