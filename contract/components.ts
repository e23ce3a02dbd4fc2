import type { TSchema } from 'typebox';
import { AccountExport, ExportPayment, ExportSession } from './account.ts';
import { MobileUser, TokenPair, VerificationCodeAnswer } from './auth.ts';
import { ContentElement, Greetie, GreetieGift, GreetieInfo, GreetieMedia, GreetieStatus, GreetieThanks, PublicGreetie } from './greetie.ts';
import { Health } from './health.ts';
import { PictureAnswer } from './media.ts';
import { Merchant, MerchantAddress, MerchantCategory, MerchantPage, MerchantSource, Product, SandboxMerchant } from './merchant.ts';
import { Notification, NotificationType, SandboxPush, WebPushKey } from './notification.ts';
import { MerchantCodeAnswer, MerchantRole, PortalMerchant, PortalRedemption, PortalSummary } from './portal.ts';
import { Payment, PaymentStatus, Refund, RefundStatus, SandboxRefund } from './payment.ts';
import { SandboxSms, SandboxStatus } from './sandbox.ts';
import { Seller } from './seller.ts';
import { RedemptionVia, Voucher, VoucherKind, VoucherQr, VoucherRedemption } from './voucher.ts';

/**
 * The named shapes of the OpenAPI document (/api/openapi.json, decision 007): each shape of
 * API.md, and each enum, is one component that every answer refers to, so a generated client has
 * one type per shape. A shape is named by its `$id` (its `title` is the same name). A new shape
 * that an answer gives gets an `$id` and a line here. ErrorBody is added to the app itself
 * (server/app.ts), as the error answers refer to it by name.
 */
export const COMPONENTS: readonly TSchema[] = [
  // Enums, named once.
  GreetieStatus,
  MerchantCategory,
  MerchantRole,
  MerchantSource,
  NotificationType,
  PaymentStatus,
  RefundStatus,
  RedemptionVia,
  VoucherKind,
  // Shapes.
  AccountExport,
  ContentElement,
  ExportPayment,
  ExportSession,
  Greetie,
  GreetieGift,
  GreetieInfo,
  GreetieMedia,
  GreetieThanks,
  Health,
  Merchant,
  MerchantAddress,
  MerchantCodeAnswer,
  MerchantPage,
  MobileUser,
  Notification,
  Payment,
  PictureAnswer,
  PortalMerchant,
  PortalRedemption,
  PortalSummary,
  Product,
  PublicGreetie,
  Refund,
  SandboxMerchant,
  SandboxPush,
  SandboxRefund,
  SandboxSms,
  SandboxStatus,
  Seller,
  TokenPair,
  VerificationCodeAnswer,
  Voucher,
  VoucherQr,
  VoucherRedemption,
  WebPushKey,
];

/** The document's tags, in the order a reader meets them; every operation has one of these. */
export const TAGS = [
  { name: 'Health', description: 'Whether the server and its database answer' },
  { name: 'Auth', description: 'Sign-in with a mobile number and an SMS code; access and refresh tokens' },
  { name: 'Merchant', description: 'The public catalogue: merchants and their products (ETag, 304)' },
  { name: 'Greetie', description: 'Making, paying, sending and reading greeties; their media uploads' },
  { name: 'Media', description: 'The stored photos, videos, posters, overlays and pictures (range requests, ETag)' },
  { name: 'Payment', description: "A greetie's payment through Swish, and the provider's callback" },
  { name: 'Voucher', description: "The vouchers a recipient owns, and redeeming them at the merchant's till" },
  { name: 'Merchant portal', description: "For the people who work for a merchant: what was redeemed, what is owed, the settlement file, the till code" },
  { name: 'Mobile user', description: "The signed-in person's own profile, lists, notifications, push registrations and data" },
  { name: 'Seller', description: 'The company that sells the vouchers' },
  {
    name: 'Sandbox',
    description: 'Stand-ins for the outside world (SMS, push, payments) for demos and tests; present only while SANDBOX is on (x-internal)',
  },
] as const;
