import { useTranslation } from 'react-i18next';
import { buttonSecondary } from '../../components/ui.css.ts';
import type { ComposeView } from './useCompose.ts';
import * as css from './greetie.css.ts';

/**
 * The save's alert for a sold-out gift (the draft's save answered GIFT_CODE_POOL_EMPTY, which does
 * not say which gift; the compose machine reads the chosen gifts' products again to name it):
 * which one, that nothing else is lost, and how to go on. The draft stays as it is until the person
 * removes the gift, which saves the rest.
 */
export function SoldOutAlert({ compose }: { compose: ComposeView }) {
  const { t } = useTranslation('greetie');
  const { soldOut } = compose;
  return (
    <div role="alert" className={css.alert}>
      <p className={css.alertTitle}>{t('soldOut.title')}</p>
      {soldOut.gifts.length > 0
        ? soldOut.gifts.map((g, i) => <p key={`${g.productId}-${i}`}>{t('soldOut.named', { gift: g.productName, merchant: g.merchantName })}</p>)
        : soldOut.checked && <p>{t('soldOut.unnamed')}</p>}
      {compose.screen !== 'gifts' && <p>{t('soldOut.elsewhere')}</p>}
      <button type="button" className={buttonSecondary} onClick={compose.retrySave}>
        {t('soldOut.tryAgain')}
      </button>
    </div>
  );
}
