import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { GIFTS_MAX } from '../../../contract/greetie.ts';
import type { Merchant, Product } from '../../../contract/merchant.ts';
import { giftsTotal, type GiftChoice } from '../../../machines/compose/draft.ts';
import { useLoader } from '../../components/useLoader.ts';
import { button, buttonSecondary, visuallyHidden } from '../../components/ui.css.ts';
import { formatKr, formatKrRange, formatProductPrice } from '../../format/money.ts';
import { merchantsLoader, productsLoader } from './loaders.ts';
import type { ComposeView } from './useCompose.ts';
import { StepActions } from './StepActions.tsx';
import * as css from './greetie.css.ts';

/** A product as a gift: a fixed price, or a value voucher starting at its smallest amount. */
export function giftOf(merchant: Merchant, p: Product): GiftChoice {
  const ranged = p.price === undefined && p.minAmount !== undefined && p.maxAmount !== undefined;
  return {
    productId: p.id,
    productName: p.name,
    merchantId: merchant.id,
    merchantName: merchant.name,
    source: p.source,
    amount: p.price ?? p.minAmount ?? 0,
    limits: ranged ? { min: p.minAmount!, max: p.maxAmount! } : null,
  };
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Step 3: gifts from the merchants' catalogue (none is fine), amounts for value vouchers, the
 * running total. A sold-out product (`available` false) is shown but cannot be added; a chosen
 * gift found sold out after a refused save (`soldOut`, product ids; see soldOut.tsx) is marked so.
 */
export function GiftsStep({ compose, title, soldOut = NONE }: { compose: ComposeView; title: ReactNode; soldOut?: ReadonlySet<string> }) {
  const { t } = useTranslation('greetie');
  const gifts = compose.draft.gifts;
  const [merchant, setMerchant] = useState<Merchant | null>(null);
  const change = compose.changeGifts;
  const fits = gifts.every((g) => !g.limits || (g.amount >= g.limits.min && g.amount <= g.limits.max));

  return (
    <div>
      {title}
      <p className={css.lead}>{t('gifts.lead')}</p>
      {gifts.length === 0 ? (
        <p className={css.notice}>{t('gifts.none')}</p>
      ) : (
        <ul className={css.list} aria-label={t('gifts.chosen')}>
          {gifts.map((g, i) => (
            <li key={`${g.productId}-${i}`} className={soldOut.has(g.productId) ? `${css.row} ${css.rowSoldOut}` : css.row}>
              <div>
                <p className={css.rowTitle}>{g.productName}</p>
                <p className={css.rowMeta}>{g.merchantName}</p>
                {soldOut.has(g.productId) && <p className={css.soldOutNote}>{t('gifts.soldOutChosen')}</p>}
                {g.limits ? (
                  <AmountField gift={g} onAmount={(amount) => change(gifts.map((x, j) => (j === i ? { ...x, amount } : x)))} />
                ) : (
                  <p className={css.rowMeta}>{formatKr(g.amount)}</p>
                )}
              </div>
              <button
                type="button"
                className={css.linkButton}
                aria-label={t('gifts.removeLabel', { gift: g.productName })}
                onClick={() => change(gifts.filter((_, j) => j !== i))}
              >
                {t('gifts.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className={css.total} role="status">
        {t('gifts.total', { total: formatKr(giftsTotal(gifts)) })}
      </p>

      {gifts.length >= GIFTS_MAX ? (
        <p className={css.notice}>{t('gifts.full', { count: GIFTS_MAX })}</p>
      ) : merchant ? (
        <Products key={merchant.id} merchant={merchant} soldOut={soldOut} onBack={() => setMerchant(null)} onAdd={(p) => change([...gifts, giftOf(merchant, p)])} />
      ) : (
        <Merchants onPick={setMerchant} />
      )}
      <StepActions compose={compose} canGoOn={fits} />
    </div>
  );
}

/** Amounts offered as chips beside a value gift card's field (öre): those within its min and max. */
const CHIP_AMOUNTS = [20_000, 30_000, 50_000];
export function amountChips(limits: { min: number; max: number }): number[] {
  return CHIP_AMOUNTS.filter((a) => a >= limits.min && a <= limits.max);
}

function AmountField({ gift, onAmount }: { gift: GiftChoice; onAmount: (ore: number) => void }) {
  const { t } = useTranslation('greetie');
  const id = useId();
  const limits = gift.limits!;
  const [text, setText] = useState(String(gift.amount / 100));
  const kr = Number(text.replace(',', '.'));
  const ore = Math.round(kr * 100);
  const bad = !Number.isFinite(kr) || text.trim() === '' || ore < limits.min || ore > limits.max;
  return (
    <div className={css.field}>
      <label htmlFor={id} className={css.label}>
        {t('gifts.amount')}
      </label>
      <input
        id={id}
        className={css.input}
        inputMode="numeric"
        value={text}
        aria-invalid={bad}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          const n = Math.round(Number(next.replace(',', '.')) * 100);
          onAmount(Number.isFinite(n) && next.trim() !== '' ? n : 0);
        }}
      />
      <p id={`${id}-hint`} className={bad ? css.fieldError : css.hint}>
        {t('gifts.amountRange', { range: formatKrRange(limits.min, limits.max) })}
      </p>
      {amountChips(limits).length > 0 && (
        <div role="group" aria-label={t('gifts.amountChips', { product: gift.productName })} className={css.chips}>
          {amountChips(limits).map((a) => (
            <button
              key={a}
              type="button"
              className={css.chip}
              aria-pressed={!bad && ore === a}
              onClick={() => {
                setText(String(a / 100));
                onAmount(a);
              }}
            >
              {formatKr(a)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function Merchants({ onPick }: { onPick: (m: Merchant) => void }) {
  const { t } = useTranslation('greetie');
  const { status, data, error, retry } = useLoader(merchantsLoader, { q: '' });
  return (
    <section aria-labelledby="merchants-title">
      <h3 id="merchants-title">{t('gifts.add')}</h3>
      {status === 'loading' && <p role="status">{t('gifts.loadingMerchants')}</p>}
      {(status === 'failed' || status === 'notFound') && <LoadFailed message={error?.message} retry={retry} />}
      {data && (
        <ul className={css.list}>
          {data.items.map((m) => (
            <li key={m.id}>
              <button type="button" className={`${css.row} ${css.pickButton}`} onClick={() => onPick(m)}>
                <span>
                  <span className={css.rowTitle}>{m.name}</span>
                  {m.priceFrom !== null && <span className={css.rowMeta}> · {t('gifts.from', { price: formatKr(m.priceFrom) })}</span>}
                </span>
                <span aria-hidden="true">›</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A list that could not be read: its message and a way to try again. */
function LoadFailed({ message, retry }: { message: string | undefined; retry: () => void }) {
  const { t } = useTranslation('greetie');
  return (
    <div role="alert" className={css.alert}>
      <p>{message}</p>
      <button type="button" className={button} onClick={retry}>
        {t('new.retry')}
      </button>
    </div>
  );
}

function Products({ merchant, soldOut, onBack, onAdd }: { merchant: Merchant; soldOut: ReadonlySet<string>; onBack: () => void; onAdd: (p: Product) => void }) {
  const { t } = useTranslation('greetie');
  const { status, data, error, retry } = useLoader(productsLoader, { merchantId: merchant.id });
  return (
    <section aria-labelledby="products-title">
      <h3 id="products-title">{merchant.name}</h3>
      <button type="button" className={buttonSecondary} onClick={onBack}>
        {t('gifts.otherMerchant')}
      </button>
      {status === 'loading' && <p role="status">{t('gifts.loadingProducts')}</p>}
      {(status === 'failed' || status === 'notFound') && <LoadFailed message={error?.message} retry={retry} />}
      {data && data.length === 0 && <p className={css.notice}>{t('gifts.noProducts')}</p>}
      {data && (
        <ul className={css.list} style={{ marginTop: 16 }}>
          {data.map((p) => (
            <ProductRow key={p.id} product={p} soldOut={p.available === false || soldOut.has(p.id)} onAdd={onAdd} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A product to add; a sold-out one (`available` false, or found sold out since the list was read)
 * keeps its place, greyed, with why, and cannot be added.
 */
function ProductRow({ product: p, soldOut, onAdd }: { product: Product; soldOut: boolean; onAdd: (p: Product) => void }) {
  const { t } = useTranslation('greetie');
  const id = useId();
  return (
    <li className={soldOut ? `${css.row} ${css.productRow} ${css.productSoldOut}` : `${css.row} ${css.productRow}`}>
      <img src={p.imageUrl} alt="" width={48} height={48} className={css.productLogo} loading="lazy" />
      <div>
        <p className={css.rowTitle}>{p.name}</p>
        {p.description && <p className={css.productDescription}>{p.description}</p>}
        <p className={css.rowMeta}>
          {formatProductPrice(p)} · {t('gifts.validDays', { count: p.validDays })}
        </p>
        {soldOut && (
          <p id={`${id}-sold-out`} className={css.soldOutBadge}>
            <span aria-hidden="true">{t('gifts.soldOut')}</span>
            <span className={visuallyHidden}>{t('gifts.soldOutWhy')}</span>
          </p>
        )}
      </div>
      <button
        type="button"
        className={soldOut ? `${button} ${css.productAdd} ${css.soldOutButton}` : `${button} ${css.productAdd}`}
        disabled={soldOut}
        aria-disabled={soldOut || undefined}
        aria-label={t('gifts.addProductLabel', { gift: p.name })}
        aria-describedby={soldOut ? `${id}-sold-out` : undefined}
        onClick={() => {
          if (!soldOut) onAdd(p);
        }}
      >
        {t('gifts.addProduct')}
      </button>
    </li>
  );
}
