import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLoader } from '../../components/useLoader.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, buttonSecondary, visuallyHidden } from '../../components/ui.css.ts';
import { formatProductPrice } from '../../format/money.ts';
import type { Product } from '../../../contract/merchant.ts';
import { MerchantPlace } from '../../components/MerchantPlace.tsx';
import { merchantDetailsLoader } from './loaders.ts';
import * as css from './merchant.css.ts';

/**
 * /merchant/details/{id}: who the merchant is, a link to their website, and their gifts with
 * Swedish prices, each with a way to send it in a greetie (/greetie/new?productId=…). An unknown
 * merchant gets a not-found state; a failure a message and "try again".
 */
export function MerchantDetailsPage() {
  const { id = '' } = useParams();
  // Another merchant is another load: a new loader (and the skeleton) rather than the old page.
  return <MerchantDetails key={id} id={id} />;
}

function MerchantDetails({ id }: { id: string }) {
  const { t } = useTranslation('merchant');
  const { status, data, error, retry } = useLoader(merchantDetailsLoader, { id });

  const shown = status === 'loaded' ? data : null;
  usePageTitle(shown ? shown.merchant.name : status === 'notFound' ? t('details.notFoundTitle') : t('list.title'));

  const back = (
    <Link to="/merchant" className={css.back}>
      ← {t('details.back')}
    </Link>
  );

  if (status === 'notFound') {
    return (
      <section className={css.page} aria-labelledby="page-title">
        {back}
        <div className={css.notice}>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('details.notFoundTitle')}
          </h1>
          <p>{t('details.notFoundText')}</p>
          <Link to="/merchant" className={button}>
            {t('details.back')}
          </Link>
        </div>
      </section>
    );
  }

  if (status === 'failed') {
    return (
      <section className={css.page} aria-labelledby="page-title">
        {back}
        <div role="alert" className={css.alert}>
          <h1 id="page-title" className={css.alertTitle} tabIndex={-1}>
            {t('details.errorTitle')}
          </h1>
          <p>{error?.message}</p>
          <button type="button" className={button} onClick={retry}>
            {t('details.retry')}
          </button>
        </div>
      </section>
    );
  }

  if (!shown) {
    return (
      <section className={css.page} aria-busy="true">
        {back}
        <p role="status" className={visuallyHidden}>
          {t('details.loading')}
        </p>
        <div aria-hidden="true" data-testid="merchant-skeleton">
          <div className={css.skeleton} />
          <ul className={css.products}>
            {[0, 1, 2].map((i) => (
              <li key={i}>
                <div className={css.skeleton} />
              </li>
            ))}
          </ul>
        </div>
      </section>
    );
  }

  const { merchant, products } = shown;
  return (
    <article className={css.page} aria-labelledby="page-title">
      {back}
      <header className={css.header}>
        <img src={merchant.logoUrl} alt="" width={96} height={96} className={css.headerLogo} />
        <div>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {merchant.name}
          </h1>
          <p className={css.cardMeta}>
            {t(`category.${merchant.category}`)} · {merchant.sources.map((s) => t(`source.${s}`)).join(', ')}
          </p>
        </div>
      </header>
      <p className={css.description}>{merchant.description}</p>
      <MerchantPlace name={merchant.name} address={merchant.address} openingHours={merchant.openingHours} />
      {merchant.website && (
        <p>
          <a href={merchant.website} target="_blank" rel="noopener noreferrer">
            {t('details.website')}
            <span className={visuallyHidden}> {t('details.websiteNote')}</span>
          </a>
        </p>
      )}

      <h2>{t('details.giftsTitle')}</h2>
      {products.length === 0 ? (
        <p className={css.notice}>{t('details.noProducts')}</p>
      ) : (
        <ul className={css.products}>
          {products.map((p) => (
            <li key={p.id}>
              <ProductCard product={p} />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function ProductCard({ product: p }: { product: Product }) {
  const { t } = useTranslation('merchant');
  const ranged = p.price === undefined;
  return (
    <div className={css.product}>
      <h3 className={css.productName}>{p.name}</h3>
      <p className={css.price}>{formatProductPrice(p)}</p>
      {ranged && <p className={css.cardMeta}>{t('details.chooseAmount')}</p>}
      <p className={css.productText}>{p.description}</p>
      <p className={css.cardMeta}>
        {t(`source.${p.source}`)} · {t('details.validDays', { count: p.validDays })}
      </p>
      {p.available === false ? (
        // A "Code" product whose codes ran out: nothing to send until more are loaded.
        <p className={css.soldOut}>{t('details.soldOut')}</p>
      ) : (
        <Link to={`/greetie/new?productId=${encodeURIComponent(p.id)}${ranged && p.minAmount !== undefined ? `&amount=${p.minAmount}` : ''}`} className={buttonSecondary}>
          {t('details.send')}
          {/* The product's name tells the links apart for screen readers; the visible text stays in the name. */}
          <span className={visuallyHidden}>: {p.name}</span>
        </Link>
      )}
    </div>
  );
}
