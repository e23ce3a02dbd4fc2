import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { PaymentProvider } from './provider.ts';
import { paymentCallbackUrl, refundCallbackUrl } from './provider.ts';
import { createSandboxPayments, type SandboxPaymentProvider } from './sandbox.ts';
import { createSwishPayments } from './swish.ts';

/** The payment interface (./provider.ts) and the provider config.payment chooses. */
export * from './provider.ts';
export type { SandboxPaymentProvider };

/** The provider config.payment chooses. The sandbox's extra `settle` is reached with `createSandboxPayments`. */
export function createPaymentProvider(config: Config, db: Db, now: () => Date): PaymentProvider {
  if (config.payment.provider === 'swish') {
    return createSwishPayments({ ...config.payment.swish, callbackUrl: paymentCallbackUrl(config.publicUrl), refundCallbackUrl: refundCallbackUrl(config.publicUrl) });
  }
  return createSandboxPayments(db, {
    now,
    callbackUrl: paymentCallbackUrl(config.publicUrl),
    refundCallbackUrl: refundCallbackUrl(config.publicUrl),
    payeeAlias: config.payment.swish.payeeAlias || '1231181189',
  });
}
