import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Payment } from '../../../contract/payment.ts';
import { getSandboxPayments, settleSandboxPayment, type SandboxOutcome } from '../../api/payment.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { formatDate } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import * as css from './sandbox.css.ts';
import { answers } from './payments.css.ts';

/** How often the pending payments are read again while the page is open. */
export const PAYMENTS_POLL_MS = 3000;

const OUTCOMES: readonly SandboxOutcome[] = ['paid', 'declined', 'cancelled', 'error', 'timeout'];

type Read = { status: 'loading' } | { status: 'ready'; payments: Payment[] } | { status: 'failed'; payments: Payment[] | null };

/**
 * The sandbox's pending Swish payments (GET /api/sandbox/payments, read again every few seconds and
 * on request) with the payer's answers: Godkänn, Neka, Avbryt, Fel, Tidsgräns. An answer goes
 * through the sandbox provider and its callback, exactly as Swish's would.
 */
export function PendingPaymentsSection() {
  const { t, i18n } = useTranslation('payment');
  const headingId = useId();
  const [read, setRead] = useState<Read>({ status: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const payments = await getSandboxPayments(controller.signal);
      setRead({ status: 'ready', payments });
    } catch {
      if (!controller.signal.aborted) setRead((r) => ({ status: 'failed', payments: r.status === 'loading' ? null : r.payments }));
    }
  }, []);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => void refresh(), PAYMENTS_POLL_MS);
    return () => {
      clearInterval(timer);
      inFlight.current?.abort();
    };
  }, [refresh]);

  const settle = async (p: Payment, outcome: SandboxOutcome) => {
    setBusy(p.id);
    setSaid(null);
    try {
      await settleSandboxPayment(p.id, outcome);
      setSaid({ kind: 'ok', text: t('sandbox.settled', { amount: formatKr(p.amount), outcome: t(`sandbox.outcomes.${outcome}`) }) });
    } catch (e) {
      setSaid({ kind: 'error', text: t('sandbox.settleFailed', { message: (e as { userMessage?: string }).userMessage ?? String(e) }) });
    } finally {
      setBusy(null);
      void refresh();
    }
  };

  const payments = read.status === 'loading' ? null : read.payments;
  return (
    <section className={css.section} aria-labelledby={headingId}>
      <div className={css.header}>
        <h2 id={headingId} className={css.h2}>
          {t('sandbox.title')}
        </h2>
        <button type="button" className={buttonSecondary} onClick={() => void refresh()}>
          {t('sandbox.refresh')}
        </button>
      </div>
      <p className={css.muted}>{t('sandbox.intro')}</p>
      <p role="status" className={said?.kind === 'error' ? css.error : css.muted}>
        {said?.text ?? ''}
      </p>
      {read.status === 'loading' && <p className={css.muted}>{t('sandbox.loading')}</p>}
      {read.status === 'failed' && (
        <p className={css.error} role="alert">
          {t('sandbox.error')}
        </p>
      )}
      {payments && payments.length === 0 && <p className={css.muted}>{t('sandbox.empty')}</p>}
      {payments && payments.length > 0 && (
        <ol className={css.list} aria-label={t('sandbox.list')}>
          {payments.map((p) => (
            <li key={p.id} className={css.message}>
              <p className={css.body}>
                <strong>{formatKr(p.amount)}</strong>
              </p>
              <p className={css.meta}>
                <span>
                  {t('sandbox.payer')}: <strong>{p.payerAlias ?? t('sandbox.qr')}</strong>
                </span>
                <span>
                  {t('sandbox.greetie')}: <code>{p.greetieId.slice(0, 8)}</code>
                </span>
                <span>
                  {t('sandbox.createdAt')}: <time dateTime={p.createdAt}>{formatDate(p.createdAt, i18n.language, 'd MMMM yyyy HH:mm:ss')}</time>
                </span>
              </p>
              <div role="group" aria-label={t('sandbox.actions', { amount: formatKr(p.amount) })} className={answers}>
                {OUTCOMES.map((outcome) => (
                  <button key={outcome} type="button" className={buttonSecondary} disabled={busy !== null} onClick={() => void settle(p, outcome)}>
                    {t(`sandbox.outcomes.${outcome}`)}
                  </button>
                ))}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
