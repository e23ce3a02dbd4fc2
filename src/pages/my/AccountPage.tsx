import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import type { ToastsActorRef } from '../../../machines/toasts.ts';
import { mobileUserApi } from '../../api/mobileuser.ts';
import { isApiError } from '../../api/client.ts';
import { formatMobileNumber } from '../../format/phone.ts';
import { useAuthActor, useSession, useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { MyHeading } from './MyNav.tsx';
import * as css from './my.css.ts';

const calls = mobileUserApi();

/** "070-123 45 67", "+46 70…", "0046 70…" → "46701234567": what the person typed, comparable with E.164. */
export function numberDigits(typed: string): string {
  const digits = typed.replace(/\D/g, '');
  if (digits.startsWith('00')) return digits.slice(2);
  if (digits.startsWith('0')) return `46${digits.slice(1)}`;
  return digits;
}

/** The export's file name, as the server names it (a dated file). */
const fileName = (now: Date) => `greetie-mina-uppgifter-${now.toISOString().slice(0, 10)}.json`;

/**
 * /my/account: 'Ladda ner mina uppgifter' (GET /mobileuser/export saved as a JSON file) and
 * 'Radera mitt konto' (a dialog naming what will be lost, the number typed to confirm, then
 * DELETE /mobileuser/remove, signed out with a message).
 */
export function AccountPage() {
  const { t } = useTranslation('my');
  usePageTitle(t('account.title'));
  const user = useSessionUser();
  return (
    <div className={css.page}>
      <MyHeading title={t('account.title')} />
      {user && (
        <>
          <ExportCard />
          <DeleteCard mobileNumber={user.mobileNumber} />
        </>
      )}
    </div>
  );
}

function ExportCard() {
  const { t } = useTranslation('my');
  const [state, setState] = useState<'idle' | 'busy' | 'done' | 'failed'>('idle');
  const download = async () => {
    setState('busy');
    try {
      const text = await calls.exportData();
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName(new Date());
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      setState('done');
    } catch {
      setState('failed');
    }
  };
  return (
    <section className={css.card} aria-labelledby="export-title">
      <h2 id="export-title" className={css.cardTitle}>
        {t('account.exportTitle')}
      </h2>
      <p className={css.text}>{t('account.exportText')}</p>
      <div>
        <button type="button" className={buttonSecondary} onClick={() => void download()} aria-busy={state === 'busy' || undefined} disabled={state === 'busy'}>
          {state === 'busy' ? t('account.exporting') : t('account.export')}
        </button>
      </div>
      <p className={state === 'failed' ? css.error : css.hint} aria-live="polite">
        {state === 'done' ? t('account.exported') : state === 'failed' ? t('account.exportFailed') : ''}
      </p>
    </section>
  );
}

interface Losses {
  vouchers: { id: string; label: string }[];
  drafts: number;
}

function DeleteCard({ mobileNumber }: { mobileNumber: string }) {
  const { t, i18n } = useTranslation('my');
  const auth = useAuthActor();
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [losses, setLosses] = useState<Losses | null | 'failed'>(null);
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<'idle' | 'deleting' | 'failed'>('idle');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const loading = useRef<AbortController | null>(null);

  const openDialog = (next: boolean) => {
    setOpen(next);
    if (!next) {
      loading.current?.abort();
      return;
    }
    setTyped('');
    setError(null);
    setState('idle');
    setLosses(null);
    const ctrl = new AbortController();
    loading.current = ctrl;
    Promise.all([calls.vouchers(ctrl.signal), calls.sentGreeties(ctrl.signal)])
      .then(([vouchers, sent]) => {
        const money = new Intl.NumberFormat(i18n.language === 'en' ? 'en-SE' : 'sv-SE', { style: 'currency', currency: 'SEK' });
        setLosses({
          vouchers: vouchers
            .filter((v) => !v.isRedeemed && (!v.expiresAt || Date.parse(v.expiresAt) > Date.now()))
            .map((v) => ({ id: v.id, label: `${v.merchant.name}: ${v.product.name} (${money.format(v.amount / 100)})` })),
          drafts: sent.filter((g) => g.status === 'draft' || g.status === 'awaitingPayment').length,
        });
      })
      .catch(() => {
        if (!ctrl.signal.aborted) setLosses('failed');
      });
  };

  const matches = numberDigits(typed) === mobileNumber.replace(/^\+/, '');
  const remove = async () => {
    if (!matches || state === 'deleting') return;
    setState('deleting');
    setError(null);
    try {
      await calls.remove();
    } catch (err) {
      setState('failed');
      setError(isApiError(err) ? err.message : t('account.deleteFailed'));
      return;
    }
    setOpen(false);
    const toasts = auth.system.get('toasts') as ToastsActorRef | undefined;
    toasts?.send({ type: 'toast.show', message: t('account.deleted'), variant: 'success' });
    session.signOut();
  };

  return (
    <section className={css.card} aria-labelledby="delete-title">
      <h2 id="delete-title" className={css.cardTitle}>
        {t('account.deleteTitle')}
      </h2>
      <p className={css.text}>{t('account.deleteText')}</p>
      <Dialog.Root open={open} onOpenChange={openDialog}>
        <div>
          <Dialog.Trigger asChild>
            <button type="button" className={css.dangerButton}>
              {t('account.delete')}
            </button>
          </Dialog.Trigger>
        </div>
        <Dialog.Portal>
          <Dialog.Overlay className={css.dialogOverlay} />
          <Dialog.Content className={css.dialog}>
            <Dialog.Title className={css.cardTitle}>{t('account.confirmTitle')}</Dialog.Title>
            <Dialog.Description className={css.text}>{t('account.confirmText')}</Dialog.Description>
            <div aria-live="polite" aria-busy={losses === null || undefined}>
              {losses === null && <p className={css.hint}>{t('account.lossesLoading')}</p>}
              {losses === 'failed' && <p className={css.error}>{t('account.lossesFailed')}</p>}
              {losses && losses !== 'failed' && (
                <div className={css.losses}>
                  {losses.vouchers.length > 0 ? (
                    <>
                      <p className={css.label}>{t('account.lostVouchers', { count: losses.vouchers.length })}</p>
                      <ul className={css.lossList}>
                        {losses.vouchers.map((v) => (
                          <li key={v.id}>{v.label}</li>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <p className={css.hint}>{t('account.noVouchers')}</p>
                  )}
                  {losses.drafts > 0 && <p className={css.text}>{t('account.lostDrafts', { count: losses.drafts })}</p>}
                  <p className={css.hint}>{t('account.keptGreeties')}</p>
                </div>
              )}
            </div>
            <form
              className={css.field}
              onSubmit={(e) => {
                e.preventDefault();
                void remove();
              }}
            >
              <label htmlFor={inputId} className={css.label}>
                {t('account.typeNumber', { number: formatMobileNumber(mobileNumber) })}
              </label>
              <input
                id={inputId}
                className={css.input}
                inputMode="tel"
                autoComplete="off"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                aria-describedby={error ? `${inputId}-error` : undefined}
              />
              {error && (
                <p id={`${inputId}-error`} className={css.error} role="alert">
                  {error}
                </p>
              )}
              <div className={css.dialogButtons}>
                <Dialog.Close asChild>
                  <button type="button" className={buttonSecondary}>
                    {t('account.cancel')}
                  </button>
                </Dialog.Close>
                <button type="submit" className={css.dangerButton} disabled={!matches || state === 'deleting'} aria-busy={state === 'deleting' || undefined}>
                  {state === 'deleting' ? t('account.deleting') : t('account.confirm')}
                </button>
              </div>
            </form>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
