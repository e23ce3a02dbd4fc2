import type { ColumnType, Generated } from 'kysely';

/**
 * The database as Kysely sees it. Each resource adds its tables here, next to the migration that
 * creates them (server/db/migrations/).
 */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AppMetaTable {
  key: string;
  value: string;
  updated_at: Generated<Timestamp>;
}

/** 002_auth: a person who signs in with a mobile number. */
export interface MobileUserTable {
  id: Generated<string>;
  mobile_number: string;
  name: string | null;
  allow_marketing: Generated<boolean>;
  created_at: Timestamp;
}

/** 002_auth: one verification code sent by SMS (code and token stored hashed). */
export interface AuthVerificationTable {
  id: Generated<string>;
  token_hash: string;
  mobile_number: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  sent_at: Timestamp | null;
  send_failed_at: Timestamp | null;
  failed_attempts: Generated<number>;
  consumed_at: Timestamp | null;
  voided_at: Timestamp | null;
}

/** 002_auth: an opaque refresh token (stored hashed); rotation keeps the family. */
export interface AuthRefreshTokenTable {
  id: Generated<string>;
  token_hash: string;
  family_id: string;
  user_id: string;
  device_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** 002_auth: one counted event for a sliding-window rate limit. */
export interface AuthRateEventTable {
  id: Generated<number>;
  kind: string;
  key: string;
  at: Timestamp;
}

/** 002_auth: the sandbox SMS outbox. */
export interface SandboxSmsTable {
  id: Generated<number>;
  to_number: string;
  body: string;
  sent_at: Timestamp;
}

/** 003_merchant: a merchant in the catalogue; its merchant code is kept only as a hash. */
export interface MerchantTable {
  id: Generated<string>;
  name: string;
  description: Generated<string>;
  logo_url: string;
  category: string;
  website: string | null;
  sources: string[];
  active: Generated<boolean>;
  code_hash: string;
  /** 026_merchant_address: where an InStore voucher is used (all three or none), and when. */
  street: ColumnType<string | null, string | null | undefined, string | null>;
  postal_code: ColumnType<string | null, string | null | undefined, string | null>;
  city: ColumnType<string | null, string | null | undefined, string | null>;
  opening_hours: ColumnType<string | null, string | null | undefined, string | null>;
  /** 026_merchant_address: the active products' names, kept by triggers on product. */
  product_names: ColumnType<string, never, never>;
  /**
   * Generated: greetie_fold of the name, description, the category's words, the city and
   * product_names, for accent-insensitive search (026_merchant_address).
   */
  search: ColumnType<string, never, never>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** 003_merchant: something a merchant sells: a fixed price, or a min/max range (öre). */
export interface ProductTable {
  id: Generated<string>;
  merchant_id: string;
  name: string;
  description: Generated<string>;
  image_url: string | null;
  source: string;
  price: number | null;
  min_amount: number | null;
  max_amount: number | null;
  valid_days: number;
  active: Generated<boolean>;
  created_at: Generated<Timestamp>;
  updated_at: Generated<Timestamp>;
}

/** 004_greetie: a greetie; a draft while it is composed. */
export interface GreetieTable {
  id: Generated<string>;
  ref_id: string;
  sender_id: string | null;
  recipient_number: string | null;
  recipient_name: string | null;
  message: Generated<string>;
  /** ContentElement[] (contract/greetie.ts), validated before it is written. */
  content: ColumnType<unknown[], string | undefined, string>;
  status: Generated<'draft' | 'awaitingPayment' | 'scheduled' | 'delivered' | 'deliveryFailed' | 'cancelled'>;
  total: Generated<number>;
  deliver_at: Timestamp | null;
  delivered_at: Timestamp | null;
  viewed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 019: how often the sender corrected the recipient (at most 3). */
  recipient_changes: Generated<number>;
  /** 019: the last POST /resend. */
  resent_at: Timestamp | null;
  /** 018_refunds: when the sender (or the unclaimed-refund sweep) cancelled it. */
  cancelled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** 019_recipient_thanks: a correction of the recipient, as a send to the new number (sending limits). */
export interface RecipientChangeTable {
  id: Generated<string>;
  greetie_id: string;
  sender_id: string | null;
  recipient_number: string;
  created_at: Timestamp;
}

/** 019_recipient_thanks: one reminder made for one delivery of a greetie (the claim that makes it once). */
export interface GreetieReminderTable {
  greetie_id: string;
  delivered_at: Timestamp;
  step: string;
  created_at: Timestamp;
}

/** 019_recipient_thanks: the recipient's one thank-you. */
export interface GreetieThanksTable {
  greetie_id: string;
  message: string;
  emoji: string | null;
  created_at: Timestamp;
}

/** 004_greetie: one gift of a greetie: a product and its amount in öre (fixed on the server). */
export interface GreetieGiftTable {
  id: Generated<string>;
  greetie_id: string;
  position: number;
  product_id: string;
  amount: number;
  created_at: Timestamp;
}

/** 004_greetie: one stored media object of a greetie, named by an unguessable storage key. */
export interface MediaFileTable {
  id: Generated<string>;
  greetie_id: string;
  role: 'media' | 'thumbnail' | 'overlay' | 'picture';
  kind: 'photo' | 'video';
  storage_key: string;
  content_type: string;
  size: number;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  created_at: Generated<Timestamp>;
}

/** 005_payment: one attempt to pay for a greetie (API.md's Payment). */
export interface PaymentTable {
  id: Generated<string>;
  greetie_id: string;
  provider: 'sandbox' | 'swish';
  status: Generated<'created' | 'pending' | 'paid' | 'declined' | 'error' | 'cancelled' | 'expired'>;
  amount: number;
  instruction_id: string;
  payer_alias: string | null;
  error_code: string | null;
  swish_token: string | null;
  swish_location: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 021: when the buyer gave the withdrawal consent (null on payments made before 021). */
  consented_at: Timestamp | null;
  /** 021: the /villkor version agreed to (null exactly when consented_at is). */
  terms_version: string | null;
  /** 025: "G-100123", for people (receipt, Swish message); from payment_order_number_seq. */
  order_number: Generated<string>;
}

/** 005_payment: the sandbox provider's payment requests, kept in Swish's terms. */
export interface SandboxPaymentRequestTable {
  instruction_id: string;
  payee_alias: string;
  payer_alias: string | null;
  amount: number;
  payee_payment_reference: string;
  message: string;
  callback_url: string;
  token: string | null;
  status: Generated<'CREATED' | 'PAID' | 'DECLINED' | 'ERROR' | 'CANCELLED'>;
  error_code: string | null;
  error_message: string | null;
  payment_reference: string | null;
  date_created: Timestamp;
  date_paid: Timestamp | null;
  updated_at: Timestamp;
}

/** 007_voucher: one voucher per gift of a paid greetie. */
export interface VoucherTable {
  id: Generated<string>;
  greetie_id: string;
  /** Null only on a donated voucher (020): its Charity voucher holds the gift. */
  gift_id: string | null;
  merchant_id: string;
  product_id: string;
  source: string;
  amount: number;
  code: string | null;
  /** 020: generated, `balance = 0`. */
  is_redeemed: Generated<boolean>;
  redeemed_at: Timestamp | null;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  /** 020: "fixed" | "value", filled from the product on insert. */
  kind: Generated<string>;
  /** 020: öre still to use, filled with `amount` on insert. */
  balance: Generated<number>;
  donated_at: Timestamp | null;
  donated_to: string | null;
}

/** 020_voucher_balance: each use of a voucher; `undone_at` once undone. */
export interface VoucherRedemptionTable {
  id: Generated<string>;
  seq: Generated<string>;
  voucher_id: string;
  merchant_id: string;
  user_id: string | null;
  amount: number;
  via: string;
  redeemed_at: Timestamp;
  undone_at: Timestamp | null;
  /** 030: the product's name when it was redeemed, filled by a trigger (never written by the code). */
  product_name: Generated<string>;
}

/** 024_voucher_qr_token: a QR token handed out for a voucher (only its keyed hash); live while not ended and not expired. */
export interface VoucherQrTokenTable {
  token_hash: string;
  voucher_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  ended_at: Timestamp | null;
  redemption_id: string | null;
}

/** 022_merchant_staff: a person who works for a merchant (linked by the operator); `user_id` once that number has signed in. */
export interface MerchantStaffTable {
  merchant_id: string;
  mobile_number: string;
  user_id: string | null;
  role: 'owner' | 'staff';
  created_at: Timestamp;
}

/** 011_notification: one thing that happened to a user (title and body written from type and params). */
export interface NotificationTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  greetie_id: string | null;
  voucher_id: string | null;
  params: ColumnType<Record<string, unknown>, string | undefined, string>;
  dedupe_key: string;
  read_at: Timestamp | null;
  push_state: Generated<'pending' | 'sending' | 'sent'>;
  push_since: Timestamp | null;
  created_at: Timestamp;
}

/** 011_notification: a device's Expo push token (it belongs to whoever registered it last). */
export interface ExpoPushTokenTable {
  token: string;
  user_id: string;
  device_id: string;
  updated_at: Timestamp;
  /** 013_push_language: the language its pushes are written in. */
  language: Generated<'sv' | 'en'>;
}

/** 011_notification: an Expo push ticket whose receipt is still to be fetched. */
export interface ExpoPushTicketTable {
  id: string;
  token: string;
  notification_id: string | null;
  created_at: Timestamp;
}

/** 011_notification: a browser's Web Push subscription. */
export interface WebpushSubscriptionTable {
  endpoint: string;
  user_id: string;
  p256dh: string;
  auth: string;
  created_at: Timestamp;
  /** 013_push_language: the language its pushes are written in. */
  language: Generated<'sv' | 'en'>;
}

/** 014_push_vapid: the one VAPID key pair of every process (when not given by settings). */
export interface WebpushVapidTable {
  id: Generated<boolean>;
  public_key: string;
  private_key: string;
  created_at: Generated<Timestamp>;
}

/** 011_notification: the sandbox push outbox. */
export interface SandboxPushTable {
  id: Generated<number>;
  user_id: string | null;
  to_address: string;
  title: string;
  body: string;
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  sent_at: Timestamp;
}

/** 009_code_pool: one code of a "Code" product's pool; free, reserved by a payment, or taken by a voucher. */
export interface ProductCodeTable {
  id: Generated<string>;
  product_id: string;
  code: string;
  payment_id: string | null;
  voucher_id: string | null;
  taken_at: Timestamp | null;
  created_at: Generated<Timestamp>;
}

/** 009_code_pool: how many free codes a product's pool has (the gate of every reservation). */
export interface CodePoolTable {
  product_id: string;
  free: Generated<number>;
  updated_at: Generated<Timestamp>;
}

/** 010_redeem: every merchant code typed for a voucher, with its outcome (kept for the merchant). */
export interface RedeemAttemptTable {
  id: Generated<string>;
  voucher_id: string;
  merchant_id: string;
  user_id: string | null;
  ok: boolean;
  /** 020 adds the outcomes of amounts and undos. */
  outcome: 'redeemed' | 'wrongCode' | 'alreadyRedeemed' | 'expired' | 'locked' | 'amountNotAllowed' | 'balanceTooLow' | 'undone' | 'undoTooLate' | 'alreadyUndone';
  at: Timestamp;
}

/** 008_delivery: one scheduled greetie's delivery by SMS (server/delivery). */
export interface DeliveryTable {
  greetie_id: string;
  sender_id: string | null;
  recipient_number: string;
  state: Generated<'pending' | 'sending' | 'sent' | 'failed' | 'cancelled'>;
  due_at: Timestamp;
  attempts: Generated<number>;
  sending_since: Timestamp | null;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** 016: the SMS fixed at the claim (number and exact text), kept only while in sending. */
  sms_to: string | null;
  sms_body: string | null;
}

/** 017_idempotency_key: one person's Idempotency-Key and its first answer (server/idempotency). */
export interface IdempotencyKeyTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response: string | null;
  created_at: Timestamp;
}

/** 018_refunds: giving a payment's money back, once (server/payment/refunds.ts). */
export interface RefundTable {
  id: Generated<string>;
  payment_id: string;
  greetie_id: string;
  provider: 'sandbox' | 'swish';
  status: Generated<'created' | 'pending' | 'paid' | 'error'>;
  amount: number;
  instruction_id: string;
  original_payment_reference: string | null;
  error_code: string | null;
  attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** 018_refunds: the sandbox provider's refunds, kept in Swish's terms. */
export interface SandboxRefundTable {
  instruction_id: string;
  original_payment_reference: string;
  payer_alias: string;
  amount: number;
  message: string;
  callback_url: string;
  status: Generated<'CREATED' | 'PAID' | 'ERROR'>;
  error_code: string | null;
  error_message: string | null;
  payment_reference: string | null;
  date_created: Timestamp;
  date_paid: Timestamp | null;
  updated_at: Timestamp;
}

export interface Database {
  app_meta: AppMetaTable;
  mobile_user: MobileUserTable;
  auth_verification: AuthVerificationTable;
  auth_refresh_token: AuthRefreshTokenTable;
  auth_rate_event: AuthRateEventTable;
  sandbox_sms: SandboxSmsTable;
  merchant: MerchantTable;
  product: ProductTable;
  greetie: GreetieTable;
  greetie_gift: GreetieGiftTable;
  media_file: MediaFileTable;
  payment: PaymentTable;
  sandbox_payment_request: SandboxPaymentRequestTable;
  voucher: VoucherTable;
  voucher_redemption: VoucherRedemptionTable;
  merchant_staff: MerchantStaffTable;
  voucher_qr_token: VoucherQrTokenTable;
  delivery: DeliveryTable;
  idempotency_key: IdempotencyKeyTable;
  recipient_change: RecipientChangeTable;
  greetie_reminder: GreetieReminderTable;
  greetie_thanks: GreetieThanksTable;
  refund: RefundTable;
  sandbox_refund: SandboxRefundTable;
  product_code: ProductCodeTable;
  code_pool: CodePoolTable;
  redeem_attempt: RedeemAttemptTable;
  notification: NotificationTable;
  expo_push_token: ExpoPushTokenTable;
  expo_push_ticket: ExpoPushTicketTable;
  webpush_subscription: WebpushSubscriptionTable;
  webpush_vapid: WebpushVapidTable;
  sandbox_push: SandboxPushTable;
}
