import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import type { Failure } from '../../../contract/errors.ts';
import type { Voucher } from '../../../contract/voucher.ts';
import { CHARITY_FAILURES, type CharityOption } from '../../../machines/donate.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { formatKr } from '../../format/money.ts';
import { useDonate, type DonateCommands, type DonateView } from './useDonate.ts';
import * as css from './voucher.css.ts';

/** What the voucher's page shows of a donation just made (router state of the new voucher's page). */
export interface DonatedState {
  donatedFrom: { merchant: string };
}

/**
 * "Skänk värdet i stället" on an unused in-store voucher (machines/donate.ts through useDonate):
 * the charities that can take its amount as a list to pick from, a confirmation (a Radix dialog)
 * that says exactly what happens, then the Charity voucher that replaces it (its own page, which
 * says what happened). Only offered where the server allows it (`isDonatable`).
 */
export function DonateInstead({ voucher }: { voucher: Voucher }) {
  const { t } = useTranslation('voucher');
  const flow = useDonate(voucher);
  const navigate = useNavigate();
  const { screen, donated } = flow;
  useEffect(() => {
    if (screen !== 'done' || !donated) return;
    const state: DonatedState = { donatedFrom: { merchant: voucher.merchant.name } };
    void navigate(`/voucher/${donated.id}`, { replace: true, state });
  }, [screen, donated, navigate, voucher.merchant.name]);
  const amount = formatKr(voucher.amount);
  return (
    <section className={css.donate} aria-labelledby="donate-title">
      <h2 id="donate-title" className={css.sectionTitle}>
        {t('donate.offer')}
      </h2>
      {screen === 'idle' ? (
        <>
          <p className={css.muted}>{t('donate.offerText', { amount })}</p>
          <button type="button" className={`${buttonSecondary} ${css.wide}`} onClick={flow.start}>
            {t('donate.offer')}
          </button>
        </>
      ) : screen === 'loading' ? (
        <p role="status" className={css.muted} aria-busy="true">
          {t('donate.loading')}
        </p>
      ) : screen === 'loadFailed' ? (
        <>
          <p role="alert" className={css.error}>
            {t('donate.loadFailed', { message: flow.failure?.message ?? '' }).trim()}
          </p>
          <div className={css.actions}>
            <button type="button" className={button} onClick={flow.retry}>
              {t('donate.retry')}
            </button>
            <button type="button" className={buttonSecondary} onClick={flow.close}>
              {t('donate.cancel')}
            </button>
          </div>
        </>
      ) : (
        <Choices flow={flow} voucher={voucher} />
      )}
      <ConfirmDialog flow={flow} voucher={voucher} />
    </section>
  );
}

/** The charities to pick from; the first is picked to begin with. */
function Choices({ flow, voucher }: { flow: DonateView & DonateCommands; voucher: Voucher }) {
  const { t } = useTranslation('voucher');
  const options = flow.options ?? [];
  const [picked, setPicked] = useState(() => flow.choice?.product.id ?? options[0]?.product.id ?? '');
  if (options.length === 0) {
    return (
      <>
        <p role="status">{t('donate.none', { amount: formatKr(voucher.amount) })}</p>
        <div className={css.actions}>
          <button type="button" className={buttonSecondary} onClick={flow.close}>
            {t('donate.close')}
          </button>
        </div>
      </>
    );
  }
  return (
    <form
      className={css.donate}
      onSubmit={(e) => {
        e.preventDefault();
        flow.choose(picked);
      }}
    >
      <fieldset className={css.choices}>
        <legend className={css.legend}>{t('donate.choose')}</legend>
        {options.map((o) => (
          <Choice key={o.product.id} option={o} checked={picked === o.product.id} onPick={() => setPicked(o.product.id)} />
        ))}
      </fieldset>
      <div className={css.actions}>
        <button type="submit" className={button}>
          {t('donate.next')}
        </button>
        <button type="button" className={buttonSecondary} onClick={flow.close}>
          {t('donate.cancel')}
        </button>
      </div>
    </form>
  );
}

function Choice({ option: o, checked, onPick }: { option: CharityOption; checked: boolean; onPick: () => void }) {
  const id = `charity-${o.product.id}`;
  return (
    <label htmlFor={id} className={css.choice}>
      <input
        id={id}
        type="radio"
        name="charity"
        value={o.product.id}
        checked={checked}
        onChange={onPick}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-text`}
      />
      <img src={o.merchant.logoUrl} alt="" width={40} height={40} className={css.choiceLogo} />
      <span className={css.choiceText}>
        <strong id={`${id}-name`}>{o.merchant.name}</strong>
        <span id={`${id}-text`} className={css.muted}>
          {o.merchant.description}
        </span>
      </span>
    </label>
  );
}

/** The confirmation, the sending and a refusal, in one Radix dialog. */
function ConfirmDialog({ flow, voucher }: { flow: DonateView & DonateCommands; voucher: Voucher }) {
  const { t } = useTranslation('voucher');
  const { screen, choice, failure } = flow;
  const open = (screen === 'confirming' || screen === 'busy' || screen === 'failed') && choice !== null;
  const busy = screen === 'busy';
  const organisation = choice?.merchant.name ?? '';
  const amount = formatKr(voucher.amount);
  const another = failure !== null && CHARITY_FAILURES.includes(failure.code);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !busy && flow.close()}>
      <Dialog.Portal>
        <Dialog.Overlay className={css.dialogOverlay} />
        <Dialog.Content className={css.dialog}>
          <Dialog.Title className={css.dialogTitle}>{t('donate.confirmTitle', { organisation })}</Dialog.Title>
          {screen === 'failed' ? (
            <>
              <Dialog.Description role="alert" className={css.error}>
                {failure ? <FailureText failure={failure} organisation={organisation} amount={amount} /> : null}
              </Dialog.Description>
              <div className={css.actions}>
                {another && (
                  <button type="button" className={button} onClick={flow.back}>
                    {t('donate.chooseAnother')}
                  </button>
                )}
                <button type="button" className={another ? buttonSecondary : button} onClick={flow.close}>
                  {t('donate.close')}
                </button>
              </div>
            </>
          ) : (
            <>
              <Dialog.Description className={css.dialogText}>
                {t('donate.confirmText', { amount, merchant: voucher.merchant.name, organisation })}
              </Dialog.Description>
              <div className={css.actions}>
                <button type="button" className={buttonSecondary} disabled={busy} onClick={flow.back}>
                  {t('donate.back')}
                </button>
                <button type="button" className={button} disabled={busy} aria-disabled={busy || undefined} onClick={flow.confirm}>
                  {busy ? t('donate.giving') : t('donate.confirm', { amount })}
                </button>
              </div>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const WORDED = new Set([
  'DONATION_VOUCHER_USED',
  'DONATION_VOUCHER_EXPIRED',
  'DONATION_NOT_IN_STORE',
  'VOUCHER_NOT_FOUND',
  'DONATION_AMOUNT_NOT_ACCEPTED',
  'DONATION_PRODUCT_NOT_CHARITY',
  'PRODUCT_NOT_FOUND',
]);

/** A refusal worded by its code; another one as the server said it. */
function FailureText({ failure, organisation, amount }: { failure: Failure; organisation: string; amount: string }) {
  const { t } = useTranslation('voucher');
  if (!WORDED.has(failure.code)) return <>{t('donate.failure.other', { message: failure.message }).trim()}</>;
  return <>{t(`donate.failure.${failure.code}`, { organisation, amount })}</>;
}
