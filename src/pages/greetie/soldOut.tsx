import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComposeError, GiftChoice } from '../../../machines/compose.ts';
import { useLoader } from '../../components/useLoader.ts';
import { buttonSecondary } from '../../components/ui.css.ts';
import { giftProductsLoader } from './loaders.ts';
import type { ComposeView } from './useCompose.ts';
import * as css from './greetie.css.ts';

/**
 * A chosen gift that sold out meanwhile: the draft's save answers 409
 * GIFT_CODE_POOL_EMPTY, which does not say which gift. The page then reads the chosen gifts'
 * products again and names those whose `available` is false; the draft stays as it is (nothing
 * lost) until the person removes the gift, which saves the rest.
 */
export const GIFT_SOLD_OUT = 'GIFT_CODE_POOL_EMPTY';

const NONE: ReadonlySet<string> = new Set();

export interface SoldOutView {
  /** The last save failed because a chosen gift is sold out. */
  failed: boolean;
  /** The chosen gifts found sold out (empty while looking, or when none could be named). */
  gifts: GiftChoice[];
  /** Their product ids, for the gifts step's rows. */
  productIds: ReadonlySet<string>;
  /** The products have been read again (or could not be). */
  checked: boolean;
  /** Renders nothing; reads the products while the failure stands. */
  probe: ReactNode;
}

export function useSoldOut(compose: ComposeView): SoldOutView {
  const error = compose.context.error;
  const failed = compose.save === 'failed' && error?.code === GIFT_SOLD_OUT;
  const gifts = compose.context.draft.gifts;
  const [found, setFound] = useState<{ error: ComposeError; ids: ReadonlySet<string> } | null>(null);
  const merchantIds = useMemo(() => [...new Set(gifts.map((g) => g.merchantId))].sort(), [gifts]);
  const onFound = useCallback((ids: ReadonlySet<string>) => error && setFound({ error, ids }), [error]);
  const checked = failed && found !== null && found.error === error;
  const ids = checked ? found.ids : NONE;
  // A new probe for each failure: it is not rendered while the save runs again.
  const probe = failed && merchantIds.length > 0 ? <SoldOutProbe key={merchantIds.join()} merchantIds={merchantIds} onFound={onFound} /> : null;
  return { failed, gifts: gifts.filter((g) => ids.has(g.productId)), productIds: ids, checked: checked || (failed && merchantIds.length === 0), probe };
}

function SoldOutProbe({ merchantIds, onFound }: { merchantIds: string[]; onFound: (ids: ReadonlySet<string>) => void }) {
  const { status, data } = useLoader(giftProductsLoader, { merchantIds });
  useEffect(() => {
    if (data) onFound(new Set(data.filter((p) => p.available === false).map((p) => p.id)));
    else if (status === 'failed' || status === 'notFound') onFound(NONE);
  }, [data, status, onFound]);
  return null;
}

/** The save's alert for a sold-out gift: which one, that nothing else is lost, and how to go on. */
export function SoldOutAlert({ compose, soldOut }: { compose: ComposeView; soldOut: SoldOutView }) {
  const { t } = useTranslation('greetie');
  return (
    <div role="alert" className={css.alert}>
      <p className={css.alertTitle}>{t('soldOut.title')}</p>
      {soldOut.gifts.length > 0
        ? soldOut.gifts.map((g, i) => <p key={`${g.productId}-${i}`}>{t('soldOut.named', { gift: g.productName, merchant: g.merchantName })}</p>)
        : soldOut.checked && <p>{t('soldOut.unnamed')}</p>}
      {compose.screen !== 'gifts' && <p>{t('soldOut.elsewhere')}</p>}
      <button type="button" className={buttonSecondary} onClick={() => compose.send({ type: 'user.retrySave' })}>
        {t('soldOut.tryAgain')}
      </button>
    </div>
  );
}
