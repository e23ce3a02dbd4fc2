import { Type, type Static } from 'typebox';
import { DateTime, Ore, Uuid } from './common.ts';
import { MerchantSource } from './merchant.ts';

/**
 * Vouchers (API.md "Voucher"): one per gift of a paid greetie. They belong to the
 * person whose mobile number the greetie was sent to, once it is delivered (never before: a
 * scheduled greetie stays a surprise). The sender sees what was given, never a code.
 */

export const Voucher = Type.Object(
  {
    id: Uuid,
    greetieId: Uuid,
    merchant: Type.Object({ id: Uuid, name: Type.String(), logoUrl: Type.String() }),
    product: Type.Object({ id: Uuid, name: Type.String() }),
    source: MerchantSource,
    amount: Ore,
    code: Type.Optional(Type.String({ description: 'Only for source "Code", only to its owner' })),
    isRedeemed: Type.Boolean(),
    redeemedAt: Type.Union([DateTime, Type.Null()]),
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
  },
  { additionalProperties: false },
);
export type RedeemBody = Static<typeof RedeemBody>;

/** POST /voucher/redeemed?id= */
export const RedeemedQuery = Type.Object({ id: Uuid }, { additionalProperties: false });
export type RedeemedQuery = Static<typeof RedeemedQuery>;

/** After this many wrong merchant codes for one voucher within REDEEM_LOCK_MINUTES, 429. */
export const REDEEM_MAX_WRONG = 5;
/** After this many wrong merchant codes by one person at one merchant (any of its vouchers) within REDEEM_LOCK_MINUTES, 429. */
export const REDEEM_MAX_WRONG_AT_MERCHANT = 10;
export const REDEEM_LOCK_MINUTES = 15;
