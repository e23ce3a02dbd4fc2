import { Type, type Static } from 'typebox';
import { DateTime, Ore, Uuid } from './common.ts';
import { MobileUser } from './auth.ts';
import { Greetie } from './greetie.ts';
import { Voucher } from './voucher.ts';

/**
 * One's own account as a whole (API.md, "Mobile user"): GET /mobileuser/export, the
 * GDPR right of access, and DELETE /mobileuser/remove. The export never holds a secret: no token
 * or its hash, no code of a voucher the caller does not own, no merchant code, no provider token.
 */

/**
 * A copy of a shared schema without its `$id`s (its own and nested ones): the export holds
 * Greetie, Voucher and MobileUser more than once, and a serializer refuses two schemas of one id.
 * The copy keeps its `title`, by which the OpenAPI document still refers to the named shape.
 */
function inline<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (key: string, value: unknown) => (key === '$id' ? undefined : value)) as T;
}
const GreetieCopy = inline(Greetie);
const VoucherCopy = inline(Voucher);

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const ExportPayment = Type.Object({
  id: Uuid,
  greetieId: Uuid,
  provider: Type.String(),
  status: Type.String(),
  amount: Ore,
  payerAlias: Nullable(Type.String()),
  errorCode: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
}, { $id: 'ExportPayment', title: 'ExportPayment' });

export const ExportSession = Type.Object({
  deviceId: Uuid,
  signedInAt: DateTime,
  lastRefreshedAt: DateTime,
  expiresAt: DateTime,
  revokedAt: Nullable(DateTime),
}, { $id: 'ExportSession', title: 'ExportSession' });

export const AccountExport = Type.Object(
  {
    exportedAt: DateTime,
    profile: inline(MobileUser),
    consents: Type.Object({ marketing: Type.Boolean({ description: 'Consent to marketing (POST /mobileuser/allowmarketing)' }) }),
    greeties: Type.Object({
      sent: Type.Array(GreetieCopy, { description: 'Every greetie the caller made, drafts included' }),
      received: Type.Array(GreetieCopy, { description: "Every greetie delivered to the caller's number" }),
    }),
    vouchers: Type.Array(VoucherCopy, { description: 'The vouchers the caller owns (with their codes)' }),
    payments: Type.Array(ExportPayment, { description: "The payments of the caller's greeties" }),
    redeemAttempts: Type.Array(
      Type.Object({ voucherId: Uuid, merchantName: Type.String(), outcome: Type.String(), at: DateTime }),
      { description: "The caller's attempts at redeeming a voucher in a shop" },
    ),
    sessions: Type.Array(ExportSession, { description: 'Sign-ins (one per device and sign-in), never their tokens' }),
    notifications: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: "The caller's notifications (when the server keeps them)" }),
    pushRegistrations: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'Devices and browsers registered for push: the device or the push service, when; never the keys',
    }),
  },
  { $id: 'AccountExport', title: 'AccountExport' },
);
export type AccountExport = Static<typeof AccountExport>;
