import type { ErrorCode } from '../contract/errors.ts';
import { messages as common } from './i18n/common.ts';
import { registerMessages, type Message } from './i18n/index.ts';
import { messages as auth } from './auth/messages.ts';
import { messages as merchant } from './merchant/messages.ts';
import { messages as greetie } from './greetie/messages.ts';
import { messages as media } from './media/messages.ts';
import { messages as mobileuser } from './mobileuser/messages.ts';
import { messages as payment } from './providers/payment/messages.ts';
import { messages as paymentCalls } from './payment/messages.ts';
import { messages as delivery } from './delivery/messages.ts';
import { messages as voucher } from './voucher/messages.ts';
import { messages as notification } from './notification/messages.ts';
import { messages as idempotency } from './idempotency/messages.ts';
import { messages as portal } from './portal/messages.ts';

/**
 * Every API error code has a message and no catalogue holds a key outside the union: each
 * catalogue is `satisfies Catalogue` (no stray key), and together they must be a full record
 * (tests/server/foundation/error-codes.test.ts checks the same at run time).
 */
const everyCode = {
  ...common,
  ...auth,
  ...merchant,
  ...greetie,
  ...media,
  ...mobileuser,
  ...payment,
  ...paymentCalls,
  ...voucher,
  ...delivery,
  ...notification,
  ...idempotency,
  ...portal,
} satisfies Record<ErrorCode, Message>;

/**
 * Every resource's error messages, put into the i18n registry (server/i18n) from above, so the
 * registry imports no resource. A new resource adds its `messages.ts` here. Called by buildApp
 * and the admin command before they answer; calling it again changes nothing.
 */
export function registerServerMessages(): void {
  registerMessages(everyCode);
}
