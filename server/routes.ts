import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from './health/routes.ts';
import { sandboxIndexRoutes } from './sandbox/routes.ts';
import { installAuthentication } from './auth/authenticate.ts';
import { authRoutes } from './auth/routes.ts';
import { sandboxSmsRoutes } from './sandbox/sms.ts';
import { merchantRoutes } from './merchant/routes.ts';
import { greetieRoutes } from './greetie/routes.ts';
import { mediaRoutes } from './media/routes.ts';
import { mobileUserRoutes } from './mobileuser/routes.ts';
import { sandboxMerchantRoutes } from './sandbox/merchants.ts';
import { paymentRoutes } from './payment/routes.ts';
import { greetiePayments } from './payment/rules.ts';
import { sellerRoutes } from './seller/routes.ts';
import { sandboxPaymentRoutes } from './sandbox/payments.ts';
import { voucherRoutes } from './voucher/routes.ts';
import { notificationRoutes } from './notification/routes.ts';
import { sandboxPushRoutes } from './sandbox/push.ts';
import { portalRoutes } from './portal/routes.ts';
import { tillRoutes } from './portal/till.ts';

/**
 * Every resource's routes, mounted under /api. A resource is a folder in server/ with its
 * routes (schemas from contract/), rules and queries; add its plugin here.
 */
export const apiRoutes: FastifyPluginAsync = async (app) => {
  // First: app.authenticate (the one hook for protected routes) must exist before any resource.
  installAuthentication(app);
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(merchantRoutes);
  await app.register(greetieRoutes, { payments: greetiePayments });
  await app.register(mediaRoutes);
  await app.register(mobileUserRoutes);
  await app.register(paymentRoutes);
  await app.register(voucherRoutes);
  await app.register(notificationRoutes);
  await app.register(sellerRoutes);
  await app.register(portalRoutes);
  await app.register(tillRoutes);
};

/** Sandbox routes: mounted under /api/sandbox only when the sandbox is on. */
export const sandboxRoutes: FastifyPluginAsync = async (app) => {
  await app.register(sandboxIndexRoutes);
  await app.register(sandboxSmsRoutes);
  await app.register(sandboxMerchantRoutes);
  await app.register(sandboxPaymentRoutes);
  await app.register(sandboxPushRoutes);
};
