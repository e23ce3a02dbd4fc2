import type { Migration } from 'kysely';
import * as m001 from './001_foundation.ts';
import * as m002 from './002_auth.ts';
import * as m003 from './003_merchant.ts';
import * as m004 from './004_greetie.ts';
import * as m005 from './005_payment.ts';
import * as m006 from './006_catalogue_notify.ts';
import * as m007 from './007_voucher.ts';
import * as m008 from './008_delivery.ts';
import * as m009 from './009_code_pool.ts';
import * as m010 from './010_redeem.ts';
import * as m011 from './011_notification.ts';
import * as m012 from './012_redeem_known_code.ts';
import * as m013 from './013_push_language.ts';
import * as m014 from './014_push_vapid.ts';
import * as m015 from './015_limits_exact.ts';
import * as m016 from './016_delivery_claimed_sms.ts';
import * as m017 from './017_idempotency_key.ts';
import * as m018 from './018_refunds.ts';
import * as m019 from './019_recipient_thanks.ts';
import * as m020 from './020_voucher_balance.ts';
import * as m021 from './021_payment_consent.ts';
import * as m022 from './022_merchant_staff.ts';
import * as m023 from './023_portal_rollups.ts';
import * as m024 from './024_voucher_qr_token.ts';
import * as m025 from './025_payment_order_number.ts';
import * as m026 from './026_merchant_address.ts';
import * as m027 from './027_portal_open.ts';
import * as m028 from './028_redeem_answers_the_voucher.ts';
import * as m029 from './029_search_walks_the_index_alone.ts';
import * as m030 from './030_redemption_keeps_its_product_name.ts';

/**
 * Every migration, in order. Names sort the way they run; a migration never changes once it has
 * landed on main — add a new one instead.
 */
export const migrations: Record<string, Migration> = {
  '001_foundation': m001,
  '002_auth': m002,
  '003_merchant': m003,
  '004_greetie': m004,
  '005_payment': m005,
  '006_catalogue_notify': m006,
  '007_voucher': m007,
  '008_delivery': m008,
  '009_code_pool': m009,
  '010_redeem': m010,
  '011_notification': m011,
  '012_redeem_known_code': m012,
  '013_push_language': m013,
  '014_push_vapid': m014,
  '015_limits_exact': m015,
  '016_delivery_claimed_sms': m016,
  '017_idempotency_key': m017,
  '018_refunds': m018,
  '019_recipient_thanks': m019,
  '020_voucher_balance': m020,
  '021_payment_consent': m021,
  '022_merchant_staff': m022,
  '023_portal_rollups': m023,
  '024_voucher_qr_token': m024,
  '025_payment_order_number': m025,
  '026_merchant_address': m026,
  '027_portal_open': m027,
  '028_redeem_answers_the_voucher': m028,
  '029_search_walks_the_index_alone': m029,
  '030_redemption_keeps_its_product_name': m030,
};
