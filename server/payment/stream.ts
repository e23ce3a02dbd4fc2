import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Payment } from '../../contract/payment.ts';
import { HttpError, notFound } from '../errors.ts';
import { findGreetie } from '../greetie/rules.ts';
import type { PaymentEvents } from './events.ts';
import { toPayment, type PaymentDeps } from './rules.ts';
import { latestPayment, refundOfPayment } from './queries.ts';

/**
 * GET /greetie/{id}/payment/events: the greetie's latest payment as server-sent events
 * (decision 116). Each `event: payment` carries a Payment (as GET /payment answers it, less the
 * Swish token, app link and QR code: the page has those from startpayment, and a stream is no
 * place to repeat them). Sent at once, then whenever its status (or the latest payment) changes;
 * the stream ends after a final status. A `: hb` comment every `heartbeatMs` (PaymentEvents.times) keeps proxies from
 * closing it; it also ends after `maxAgeMs` (the page opens a new one). The provider is never asked
 * here: GET /payment, which the page still polls now and then, does that.
 */

export const FINAL: ReadonlySet<Payment['status']> = new Set(['paid', 'declined', 'error', 'cancelled', 'expired']);

async function currentPayment(deps: PaymentDeps, greetieId: string): Promise<Payment | undefined> {
  const row = await latestPayment(deps.db, greetieId);
  if (!row) return undefined;
  const payment = await toPayment(deps.config, { ...row, swish_token: null }, row.status === 'paid' ? await refundOfPayment(deps.db, row.id) : null);
  return { ...payment, token: null, appUrl: null, qrCode: null };
}

export async function paymentStream(
  deps: PaymentDeps,
  events: PaymentEvents,
  greetieId: string,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const greetie = await findGreetie(deps.db, greetieId);
  if (!greetie || greetie.sender_id !== req.userId) throw notFound('GREETIE_NOT_FOUND');
  const first = await currentPayment(deps, greetieId);
  if (!first) throw notFound('PAYMENT_NOT_FOUND');
  if (!events.take(req.userId)) throw new HttpError(429, 'PAYMENT_STREAMS_LIMIT', {}, undefined, { 'retry-after': '5' });

  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  // A reconnecting page waits 2 s (its polling covers the gap).
  raw.write('retry: 2000\n\n');

  let lastSent = '';
  let ended = false;
  let reading = false;
  let again = false;
  const timers: NodeJS.Timeout[] = [];
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe();
    stopOnClose();
    for (const t of timers) clearInterval(t);
    events.give(req.userId);
    raw.end();
  };
  const send = (payment: Payment) => {
    const key = `${payment.id}:${payment.status}`;
    if (key === lastSent || ended) return;
    lastSent = key;
    raw.write(`event: payment\ndata: ${JSON.stringify(payment)}\n\n`);
    if (FINAL.has(payment.status)) end();
  };
  // One read at a time; a wake during a read reads once more after it.
  const read = async () => {
    if (ended) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const payment = await currentPayment(deps, greetieId);
        if (payment) send(payment);
      } while (again && !ended);
    } catch (err) {
      req.log.warn({ err }, 'payment stream: the payment could not be read');
      end();
    } finally {
      reading = false;
    }
  };
  const unsubscribe = events.subscribe(greetieId, () => void read());
  const stopOnClose = events.onClose(end);
  raw.on('close', end);
  timers.push(setInterval(() => raw.write(': hb\n\n'), events.times.heartbeatMs));
  timers.push(
    setInterval(() => {
      if (!events.listening) void read();
    }, events.times.checkMs),
  );
  timers.push(setTimeout(end, events.times.maxAgeMs));
  send(first);
  // A change between the first read and the subscription notified no one here: read once more.
  if (!ended) void read();
}
