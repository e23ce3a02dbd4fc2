import { Type, type Static } from 'typebox';
import { DateTime, LinkNext, Uuid, answer } from './common.ts';

/** Notifications and push (API.md "Mobile user", "Sandbox push"; decision 092). */

export const NOTIFICATION_TYPES = [
  'greetieReceived',
  'greetieDelivered',
  'greetieViewed',
  'paymentSucceeded',
  'paymentFailed',
  'voucherRedeemed',
  'voucherExpiring',
  'unopened',
  'thanks',
  'refunded',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_PAGE_MAX = 100;

export const NotificationType = Type.Union(
  [
    Type.Literal('greetieReceived'),
    Type.Literal('greetieDelivered'),
    Type.Literal('greetieViewed'),
    Type.Literal('paymentSucceeded'),
    Type.Literal('paymentFailed'),
    Type.Literal('voucherRedeemed'),
    Type.Literal('voucherExpiring'),
    Type.Literal('unopened'),
    Type.Literal('thanks'),
    Type.Literal('refunded'),
  ],
  { title: 'NotificationType' },
);

export const Notification = Type.Object({
  id: Uuid,
  type: NotificationType,
  title: Type.String(),
  body: Type.String(),
  greetieId: Type.Union([Uuid, Type.Null()]),
  voucherId: Type.Union([Uuid, Type.Null()], { description: 'The voucher it is about (redeemed, expiring), else null' }),
  read: Type.Boolean(),
  createdAt: DateTime,
}, { $id: 'Notification', title: 'Notification' });
export type Notification = Static<typeof Notification>;

export const NotificationListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: NOTIFICATION_PAGE_MAX, default: 30 })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'From the previous answer\'s `Link: <…>; rel="next"` header (opaque)' })),
  },
  { additionalProperties: false },
);
export type NotificationListQuery = Static<typeof NotificationListQuery>;

/** GET /mobileuser/notifications: a page, the next page's address in `Link`, the unread count in all in `X-Unread-Count`. */
export const NotificationList = answer(Type.Array(Notification), {
  description: 'A page of notifications, newest first',
  headers: {
    Link: LinkNext,
    'X-Unread-Count': Type.Integer({ minimum: 0, description: "The caller's unread notifications in all (not only on this page)" }),
  },
});

export const NotificationReadBody = Type.Object(
  { ids: Type.Optional(Type.Array(Uuid, { maxItems: 500, description: 'Left out: all of the caller\'s' })) },
  { additionalProperties: false },
);
export type NotificationReadBody = Static<typeof NotificationReadBody>;

export const SetExpoTokenQuery = Type.Object(
  {
    deviceId: Type.String({ minLength: 1, maxLength: 200 }),
    token: Type.String({ minLength: 1, maxLength: 300, description: 'ExponentPushToken[…]' }),
  },
  { additionalProperties: false },
);
export const RemoveExpoTokenQuery = Type.Object({ deviceId: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export const WebPushKey = Type.Object(
  { publicKey: Type.String({ description: 'The VAPID public key (base64url) for PushManager.subscribe' }) },
  { $id: 'WebPushKey', title: 'WebPushKey' },
);
export const WebPushSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({ minLength: 1, maxLength: 2000 }),
    expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    keys: Type.Object({ p256dh: Type.String({ minLength: 1, maxLength: 200 }), auth: Type.String({ minLength: 1, maxLength: 100 }) }),
  },
  { additionalProperties: false },
);
export type WebPushSubscriptionBody = Static<typeof WebPushSubscriptionBody>;
export const WebPushDeleteQuery = Type.Object({ endpoint: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });

/** A push the sandbox outbox kept (GET /api/sandbox/push). */
export const SandboxPush = Type.Object({
  to: Type.String({ description: 'The Expo push token, or user:<id> for a user with no app registered' }),
  title: Type.String(),
  body: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  sentAt: DateTime,
}, { $id: 'SandboxPush', title: 'SandboxPush' });
export type SandboxPush = Static<typeof SandboxPush>;
export const SandboxPushQuery = Type.Object({ userId: Type.Optional(Uuid) }, { additionalProperties: false });
