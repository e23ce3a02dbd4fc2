import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../contract/common.ts';
import { Payment, PaymentIdParams, RefundIdParams, SandboxRefund, SandboxRefundSettle, SandboxSettle } from '../../contract/payment.ts';
import { publicAccess } from '../access.ts';
import { conflict, notFound } from '../errors.ts';
import type { SandboxPaymentProvider } from '../providers/payment/index.ts';
import { pendingSandboxPayments, pendingSandboxRefunds, paymentById, refundById } from '../payment/queries.ts';
import { paymentForSandbox, toPayment } from '../payment/rules.ts';
import { toSandboxRefund } from '../payment/refunds.ts';

/**
 * The sandbox's payments (API.md "Sandbox"): the pending ones, and settling one as the payer would
 * in Swish. The sandbox provider settles the request and its callback body goes through the real
 * POST /api/greetie/paymentCallBack, exactly as Swish's would.
 */
export const sandboxPaymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const provider = app.services.payments;
  const sandbox = provider.name === 'sandbox' && 'settle' in provider ? (provider as SandboxPaymentProvider) : null;

  app.get(
    '/payments',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listSandboxPayments',
        tags: ['Sandbox'],
        summary: 'Payments still pending in the sandbox, newest first (sandbox only)',
        description: 'The sandbox provider\'s payments still pending, newest first, to settle with POST /sandbox/payments/{paymentId}.',
        response: { 200: Type.Array(Payment), ...errorResponses(404) },
      },
    },
    async () => Promise.all((await pendingSandboxPayments(app.db)).map((p) => toPayment(app.config, p))),
  );

  app.post(
    '/payments/:paymentId',
    {
      schema: {
        ...publicAccess(200, 'Sandbox only: anybody may play the payer'),
        operationId: 'settleSandboxPayment',
        tags: ['Sandbox'],
        summary: 'Settle a pending sandbox payment as the payer would (sandbox only)',
        description:
          'paid, declined, error, cancelled (the payer stopped in the app), or timeout (expired unanswered). The callback ' +
          'goes through /api/greetie/paymentCallBack; the answer is the Payment after it. 404 PAYMENT_NOT_FOUND; ' +
          '409 PAYMENT_NOT_PENDING once settled.',
        params: PaymentIdParams,
        body: SandboxSettle,
        response: { 200: Payment, ...errorResponses(400, 404, 409) },
      },
    },
    async (req) => {
      const payment = await paymentForSandbox(app, req.params.paymentId);
      if (!sandbox || payment.provider !== 'sandbox') throw notFound('PAYMENT_SANDBOX_ONLY');
      const callback = await sandbox.settle(payment.instruction_id, req.body.outcome).catch((err: unknown) => {
        if (err instanceof Error && err.name === 'PaymentError') throw conflict('PAYMENT_NOT_PENDING');
        throw err;
      });
      if (!callback) throw conflict('PAYMENT_NOT_PENDING');
      const delivered = await app.inject({ method: 'POST', url: '/api/greetie/paymentCallBack', payload: callback });
      if (delivered.statusCode !== 200) req.log.error({ status: delivered.statusCode, paymentId: payment.id }, 'sandbox callback not taken');
      return toPayment(app.config, (await paymentById(app.db, payment.id))!);
    },
  );

  app.get(
    '/refunds',
    {
      schema: {
        ...publicAccess(),
        operationId: 'listSandboxRefunds',
        tags: ['Sandbox'],
        summary: 'Refunds still pending in the sandbox, newest first (sandbox only)',
        description: "The sandbox provider's refunds not yet settled, newest first, to settle with POST /sandbox/refunds/{refundId}.",
        response: { 200: Type.Array(SandboxRefund), ...errorResponses(404) },
      },
    },
    async () => (await pendingSandboxRefunds(app.db)).map(toSandboxRefund),
  );

  app.post(
    '/refunds/:refundId',
    {
      schema: {
        ...publicAccess(200, 'Sandbox only: anybody may play Swish'),
        operationId: 'settleSandboxRefund',
        tags: ['Sandbox'],
        summary: 'Settle a pending sandbox refund as Swish would (sandbox only)',
        description:
          'paid, or error (the refund failed: the reconciliation tries it again as the same refund). The callback goes ' +
          'through /api/greetie/refundCallBack; the answer is the refund after it. 404 REFUND_NOT_FOUND; 409 ' +
          'REFUND_NOT_PENDING once settled (or before the provider has it).',
        params: RefundIdParams,
        body: SandboxRefundSettle,
        response: { 200: SandboxRefund, ...errorResponses(400, 404, 409) },
      },
    },
    async (req) => {
      const refund = await refundById(app.db, req.params.refundId);
      if (!refund) throw notFound('REFUND_NOT_FOUND');
      if (!sandbox || refund.provider !== 'sandbox') throw notFound('PAYMENT_SANDBOX_ONLY');
      const callback = await sandbox.settleRefund(refund.instruction_id, req.body.outcome).catch((err: unknown) => {
        if (err instanceof Error && err.name === 'PaymentError') throw conflict('REFUND_NOT_PENDING');
        throw err;
      });
      if (!callback) throw conflict('REFUND_NOT_PENDING');
      const delivered = await app.inject({ method: 'POST', url: '/api/greetie/refundCallBack', payload: callback });
      if (delivered.statusCode !== 200) req.log.error({ status: delivered.statusCode, refundId: refund.id }, 'sandbox refund callback not taken');
      return toSandboxRefund((await refundById(app.db, refund.id))!);
    },
  );
};
