import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { PaymentRow } from './queries.ts';
import { expirePayment, refresh, type PaymentDeps } from './rules.ts';
import { REFUND_MIN_AGE_MS, reconcileRefunds } from './refunds.ts';
import { createPeriodic } from '../periodic.ts';

/**
 * Reconciling open payments (decision 080 "Recovery"): nobody has to ask for a payment
 * to reach its end.
 * - A payment whose provider said PAID but whose write never happened (the process died between
 *   the two, or the callback was lost) is found open and asked about again: at start-up (every
 *   open payment) and then every `everyMs` (open payments older than a few seconds).
 * - Swish ends a payment request nobody answered after 3 minutes (ERROR TM01) and calls back; if
 *   that answer never reaches us, an open payment older than `expireAfterMs` (Swish's 3 minutes
 *   and a minute of grace) is cancelled with the provider and ends `expired` (`expirePayment`;
 *   paid meanwhile → paid).
 * Everything goes through `applyState`, the one code path (a conditional UPDATE of an open
 * payment): several processes reconciling at once, or a callback arriving meanwhile, apply each
 * answer once.
 */

/** Swish: a payment request not answered within 3 minutes ends with ERROR TM01. */
export const PROVIDER_EXPIRY_MS = 3 * 60_000;
/** We end one ourselves a minute later (Swish's own answer normally comes first). */
export const EXPIRE_AFTER_MS = PROVIDER_EXPIRY_MS + 60_000;
/** The periodic pass leaves payments younger than this alone (their callback is on its way). */
export const RECONCILE_MIN_AGE_MS = 5_000;
export const RECONCILE_EVERY_MS = 30_000;

export interface ReconcileOptions {
  /** Only payments whose last change is at least this old (0 at start-up: all of them). */
  minAgeMs: number;
  expireAfterMs?: number;
  /** At most this many per pass, oldest first. */
  limit?: number;
}

export interface ReconcileResult {
  checked: number;
  /** Answers that changed a payment (paid, declined, expired…). */
  applied: number;
  expired: number;
}

export async function reconcileOpenPayments(deps: PaymentDeps, opts: ReconcileOptions, log?: FastifyBaseLogger): Promise<ReconcileResult> {
  const now = deps.services.now().getTime();
  const expireAfter = opts.expireAfterMs ?? EXPIRE_AFTER_MS;
  const before = new Date(now - opts.minAgeMs);
  const { rows } = await sql<PaymentRow>`
    SELECT * FROM payment
     WHERE status IN ('created', 'pending') AND created_at <= ${before} AND updated_at <= ${before}
     ORDER BY created_at
     LIMIT ${opts.limit ?? 500}`.execute(deps.db);
  const result: ReconcileResult = { checked: rows.length, applied: 0, expired: 0 };
  for (const payment of rows) {
    try {
      if (now - payment.created_at.getTime() >= expireAfter) {
        if (await expirePayment(deps, payment, log)) {
          result.applied += 1;
          result.expired += 1;
        }
      } else if (await refresh(deps, payment, log)) {
        result.applied += 1;
      }
    } catch (err) {
      // One payment that cannot be settled now (the database busy…) never stops the others.
      log?.error({ err, paymentId: payment.id }, 'payment not reconciled');
    }
  }
  return result;
}

export interface Reconciler {
  /** The start-up pass (every open payment), done. */
  ready: Promise<ReconcileResult>;
  stop(): Promise<void>;
}

/**
 * At start-up, every open payment; then `everyMs` after each pass ends, the ones older than a few
 * seconds (a periodic job, server/periodic.ts: never two passes at once; a failure logged).
 */
export function startPaymentReconciler(deps: PaymentDeps, log?: FastifyBaseLogger, opts: { everyMs?: number } = {}): Reconciler {
  const pass = async (minAgeMs: number) => {
    const r = await reconcileOpenPayments(deps, { minAgeMs }, log);
    if (r.applied > 0) log?.info(r, 'open payments reconciled');
    // Refunds not yet settled and unclaimed greeties (./refunds.ts), in the same pass.
    const refunds = await reconcileRefunds(deps, { minAgeMs: minAgeMs === 0 ? 0 : REFUND_MIN_AGE_MS }, log).catch((err: unknown) => {
      log?.error({ err }, 'refund reconciliation failed');
      return undefined;
    });
    if (refunds && (refunds.applied > 0 || refunds.unclaimed > 0)) log?.info(refunds, 'refunds reconciled');
    return r;
  };
  let ready: Promise<ReconcileResult> | undefined;
  const job = createPeriodic({
    name: 'payment reconciliation',
    everyMs: opts.everyMs ?? RECONCILE_EVERY_MS,
    log: log ?? { warn() {} },
    run: () => (ready ? pass(RECONCILE_MIN_AGE_MS) : (ready = pass(0))),
  });
  job.start(); // the start-up pass begins here, at once
  return { ready: ready!, stop: () => job.stop() };
}
