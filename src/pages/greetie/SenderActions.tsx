import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import type { Failure } from '../../../contract/errors.ts';
import type { Greetie } from '../../../contract/greetie.ts';
import type { GreetieActionKind } from '../../../machines/greetieActions.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { formatDateTime } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { formatMobileNumber } from '../../format/phone.ts';
import { RefundStatus } from './RefundStatus.tsx';
import type { GreetieActionsCommands, GreetieActionsView } from './useGreetieActions.ts';
import * as css from './greetie.css.ts';

/** Still the sender's to change: scheduled or delivered, not yet opened. */
export const actionable = (g: Greetie) => (g.status === 'scheduled' || g.status === 'delivered') && !g.viewed;
/** Paid for: cancelling gives the money back. */
const paidFor = (g: Greetie) => g.gifts.length > 0 && g.total > 0;

/**
 * The sender's actions on a greetie not yet opened (machines/greetieActions.ts through
 * useGreetieActions): each button opens a confirmation that says exactly what happens. Once the
 * greetie is opened, why they are gone; once cancelled, where the money is.
 */
export function SenderActions({ actions, reload }: { actions: GreetieActionsView & GreetieActionsCommands; reload?: () => void }) {
  // The dialog stays while it says what happened, whatever the greetie has become.
  return (
    <>
      <SenderActionsBody actions={actions} />
      <ActionDialog actions={actions} reload={reload} />
    </>
  );
}

function SenderActionsBody({ actions }: { actions: GreetieActionsView & GreetieActionsCommands }) {
  const { t } = useTranslation('greetie');
  const g = actions.greetie;
  if (g.status === 'cancelled') return paidFor(g) ? <RefundStatus greetieId={g.id} /> : null;
  if ((g.status === 'scheduled' || g.status === 'delivered') && g.viewed) {
    return <p className={css.notice}>{t('actions.opened')}</p>;
  }
  if (!actionable(g)) return null;
  const kinds: GreetieActionKind[] = g.status === 'delivered' ? ['correct', 'resend', 'cancel'] : ['correct', 'cancel'];
  return (
    <div className={css.actions}>
      {kinds.map((kind) => (
        <button key={kind} type="button" className={kind === 'cancel' ? `${button} ${css.danger}` : buttonSecondary} onClick={() => actions.start(kind)}>
          {t(`actions.${kind}`)}
        </button>
      ))}
    </div>
  );
}

function ActionDialog({ actions, reload }: { actions: GreetieActionsView & GreetieActionsCommands; reload?: () => void }) {
  const { t } = useTranslation('greetie');
  const { screen, action, greetie: g, failure } = actions;
  const open = screen !== 'ready' && action !== null;
  const busy = screen === 'busy';
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && actions.close()}>
      <Dialog.Portal>
        <Dialog.Overlay className={css.dialogOverlay} />
        <Dialog.Content className={css.dialog}>
          <Dialog.Title className={css.dialogTitle}>{action ? t(`actions.${action}Title`) : ''}</Dialog.Title>
          {screen === 'done' ? (
            <>
              <Dialog.Description role="status">
                {action === 'correct' ? t('actions.correctDone', { number: formatMobileNumber(g.recipient?.mobileNumber ?? '') }) : t(`actions.${action ?? 'cancel'}Done`)}
              </Dialog.Description>
              <div className={css.actions}>
                <button type="button" className={button} onClick={actions.close}>
                  {t('actions.close')}
                </button>
              </div>
            </>
          ) : screen === 'failed' ? (
            <>
              <Dialog.Description role="alert" className={css.fieldError}>
                {failure ? <FailureText failure={failure} /> : null}
              </Dialog.Description>
              <div className={css.actions}>
                <button
                  type="button"
                  className={button}
                  onClick={() => {
                    actions.close();
                    // Opened meanwhile: read it again, so the page says why the actions are gone.
                    if (failure?.code === 'GREETIE_ALREADY_OPENED') reload?.();
                  }}
                >
                  {t('actions.close')}
                </button>
              </div>
            </>
          ) : (
            <ConfirmForm actions={actions} />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The confirmation's words and, for a correction, the new number: fresh each time it opens. */
function ConfirmForm({ actions }: { actions: GreetieActionsView & GreetieActionsCommands }) {
  const { t } = useTranslation('greetie');
  const { screen, action, greetie: g, failure } = actions;
  const [mobileNumber, setMobileNumber] = useState('');
  const [name, setName] = useState(g.recipient?.name ?? '');
  const busy = screen === 'busy';
  const numberFailure = action === 'correct' && screen === 'confirming' && failure?.code === 'INVALID_MOBILE_NUMBER';
  const text = (() => {
    if (action === 'cancel') {
      return paidFor(g) ? t('actions.cancelText', { amount: formatKr(g.total) }) : t('actions.cancelTextUnpaid');
    }
    if (action === 'resend') return t('actions.resendText', { number: formatMobileNumber(g.recipient?.mobileNumber ?? '') });
    return t(g.status === 'delivered' ? 'actions.correctTextDelivered' : 'actions.correctTextScheduled');
  })();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        actions.confirm(action === 'correct' ? { mobileNumber, name } : undefined);
      }}
    >
      <Dialog.Description>{text}</Dialog.Description>
      {action === 'correct' && (
        <>
          <div className={css.field}>
            <label htmlFor="correct-number" className={css.label}>
              {t('actions.newNumber')}
            </label>
            <input
              id="correct-number"
              className={css.input}
              type="tel"
              inputMode="tel"
              autoComplete="off"
              value={mobileNumber}
              aria-invalid={numberFailure || undefined}
              aria-describedby={numberFailure ? 'correct-number-error' : undefined}
              onChange={(e) => setMobileNumber(e.currentTarget.value)}
            />
            {numberFailure && (
              <p id="correct-number-error" role="alert" className={css.fieldError}>
                {t('actions.failure.INVALID_MOBILE_NUMBER')}
              </p>
            )}
          </div>
          <div className={css.field}>
            <label htmlFor="correct-name" className={css.label}>
              {t('actions.newName')}
            </label>
            <input id="correct-name" className={css.input} autoComplete="off" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          </div>
        </>
      )}
      <div className={css.actions}>
        <button type="button" className={buttonSecondary} disabled={busy} onClick={actions.close}>
          {t('actions.back')}
        </button>
        <button type="submit" className={action === 'cancel' ? `${button} ${css.danger}` : button} disabled={busy}>
          {action ? t(`actions.${action}Confirm`) : ''}
        </button>
      </div>
    </form>
  );
}

const WORDED = new Set(['GREETIE_ALREADY_OPENED', 'RECIPIENT_CHANGE_LIMIT', 'RESEND_LIMIT', 'SEND_LIMIT_PER_RECIPIENT', 'SEND_LIMIT_PER_DAY', 'INVALID_MOBILE_NUMBER']);

/** A refusal worded by its code; another one as the server said it. */
function FailureText({ failure }: { failure: Failure }) {
  const { t, i18n } = useTranslation('greetie');
  if (!WORDED.has(failure.code)) return <>{failure.message || t('actions.failure.other')}</>;
  const when = failure.retryAt ? t('actions.retryAt', { when: formatDateTime(failure.retryAt, i18n.language) }) : t('actions.retryLater');
  return <>{t(`actions.failure.${failure.code}`, { when })}</>;
}
