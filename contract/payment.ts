import { Type, type Static } from 'typebox';
import { DateTime, Ore, Uuid } from './common.ts';

/** API.md "Payment": one attempt to pay for a greetie. */
export const PaymentStatus = Type.Union(
  [
    Type.Literal('created'),
    Type.Literal('pending'),
    Type.Literal('paid'),
    Type.Literal('declined'),
    Type.Literal('error'),
    Type.Literal('cancelled'),
    Type.Literal('expired'),
  ],
  { title: 'PaymentStatus' },
);

/** API.md Payment.refund: the one refund of a payment (a failed one is retried as the same refund). */
export const RefundStatus = Type.Union([Type.Literal('pending'), Type.Literal('paid'), Type.Literal('error')], { title: 'RefundStatus' });

export const Refund = Type.Object(
  {
    id: Uuid,
    status: RefundStatus,
    amount: Ore,
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { $id: 'Refund', title: 'Refund' },
);
export type Refund = Static<typeof Refund>;

export const Payment = Type.Object(
  {
    id: Uuid,
    greetieId: Uuid,
    provider: Type.Union([Type.Literal('sandbox'), Type.Literal('swish')]),
    status: PaymentStatus,
    amount: Ore,
    redirectUrl: Type.Union([Type.String(), Type.Null()]),
    appUrl: Type.Union([Type.String(), Type.Null()], { description: 'The swish:// link for a phone (m-commerce)' }),
    qrCode: Type.Union([Type.String(), Type.Null()], { description: 'An SVG of the Swish QR code for a desktop (m-commerce)' }),
    token: Type.Union([Type.String(), Type.Null()], { description: "Swish's payment request token (m-commerce)" }),
    payerAlias: Type.Union([Type.String(), Type.Null()], { description: 'E.164 (e-commerce)' }),
    errorCode: Type.Union([Type.String(), Type.Null()], { description: "The provider's error code" }),
    createdAt: DateTime,
    updatedAt: DateTime,
    refund: Type.Union([Refund, Type.Null()], {
      description: "The money given back when the greetie was cancelled (the whole amount; one per payment), or null",
    }),
    orderNumber: Type.String({
      pattern: '^G-[0-9]{6,12}$',
      description: 'A short number for people, e.g. "G-100123", unique: on the receipt and in the Swish message (never the greetie\'s refId)',
    }),
    consentedAt: Type.Union([DateTime, Type.Null()], {
      description:
        'When the buyer agreed that delivery starts at once and that the right of withdrawal ends when the recipient opens ' +
        'the greetie or uses a gift (startpayment\'s `withdrawalConsent`); null only on payments made before it was asked',
    }),
  },
  { $id: 'Payment', title: 'Payment' },
);
export type Payment = Static<typeof Payment>;

export const StartPayment = Type.Object(
  {
    withdrawalConsent: Type.Optional(
      Type.Literal(true, {
        description:
          'The buyer ticked, at review, that delivery starts at once and that the right of withdrawal ends when the recipient ' +
          'opens the greetie or uses a gift (/villkor). Required: a missing or false one is 400 CONSENT_REQUIRED',
      }),
    ),
    payerAlias: Type.Optional(
      Type.String({ minLength: 1, maxLength: 40, description: 'A Swedish mobile number (the e-commerce flow); left out: m-commerce' }),
    ),
  },
  { additionalProperties: false },
);
export type StartPayment = Static<typeof StartPayment>;

/** Swish's callback body; only `id` is read (the status is confirmed with the provider). */
export const PaymentCallback = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: "Swish's instruction id" }),
  },
  { additionalProperties: true },
);
export type PaymentCallback = Static<typeof PaymentCallback>;

export const SandboxSettle = Type.Object(
  {
    outcome: Type.Union([Type.Literal('paid'), Type.Literal('declined'), Type.Literal('error'), Type.Literal('cancelled'), Type.Literal('timeout')]),
  },
  { additionalProperties: false },
);
export type SandboxSettle = Static<typeof SandboxSettle>;

export const PaymentIdParams = Type.Object({ paymentId: Uuid });

/** Swish's refund callback body; only `id` is read (the status is confirmed with the provider). */
export const RefundCallback = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64, description: "The refund's instruction id" }),
  },
  { additionalProperties: true },
);
export type RefundCallback = Static<typeof RefundCallback>;

/** GET /sandbox/refunds: a refund still pending in the sandbox. */
export const SandboxRefund = Type.Object(
  {
    id: Uuid,
    paymentId: Uuid,
    greetieId: Uuid,
    amount: Ore,
    status: RefundStatus,
    createdAt: DateTime,
  },
  { $id: 'SandboxRefund', title: 'SandboxRefund' },
);
export type SandboxRefund = Static<typeof SandboxRefund>;

export const SandboxRefundSettle = Type.Object(
  {
    outcome: Type.Union([Type.Literal('paid'), Type.Literal('error')]),
  },
  { additionalProperties: false },
);
export type SandboxRefundSettle = Static<typeof SandboxRefundSettle>;

export const RefundIdParams = Type.Object({ refundId: Uuid });
