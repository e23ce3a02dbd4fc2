import { useEffect, useId, useRef, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { useBootPageHandOver } from '../../components/bootPage.ts';
import { button, buttonSecondary, visuallyHidden } from '../../components/ui.css.ts';
import { formatKr } from '../../format/money.ts';
import { MERCHANT_CATEGORIES, MERCHANT_SOURCES, type Merchant, type MerchantCategory, type MerchantSource } from '../../../contract/merchant.ts';
import type { MerchantFilters as Filters } from '../../../machines/merchantSearch.ts';
import { useMerchantSearch } from './useMerchantSearch.ts';
import * as css from './merchant.css.ts';

const SKELETONS = 6;

function filtersFrom(params: URLSearchParams): Filters {
  const category = params.get('category') ?? '';
  const source = params.get('source') ?? '';
  return {
    q: params.get('q') ?? '',
    category: (MERCHANT_CATEGORIES as readonly string[]).includes(category) ? (category as MerchantCategory) : '',
    source: (MERCHANT_SOURCES as readonly string[]).includes(source) ? (source as MerchantSource) : '',
  };
}

function toSearchParams(f: Filters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.q.trim()) p.set('q', f.q);
  if (f.category) p.set('category', f.category);
  if (f.source) p.set('source', f.source);
  return p;
}

/**
 * /merchant and /merchant/list: search and filter the catalogue. The filters live in the address
 * (?q=&category=&source=), so a search can be shared and survives going back. Searching, paging,
 * errors and "show more" are the merchantSearch machine's; this component renders its state and
 * sends the person's events.
 */
export function MerchantListPage() {
  const { t } = useTranslation('merchant');
  usePageTitle(t('list.title'));
  const [searchParams, setSearchParams] = useSearchParams();
  const search = useMerchantSearch(filtersFrom(searchParams));
  const { status, filters, error } = search;
  const ids = { search: useId(), category: useId(), source: useId() };
  // The server paints the title and lead from the HTML first (decision 094); they go once these are in place.
  const boot = useBootPageHandOver<HTMLElement>();

  // The address follows the filters once the person changes them (the first ones came from it).
  // Only a change of filters writes it: setSearchParams itself changes with every address.
  const initial = useRef(filters);
  const setParams = useRef(setSearchParams);
  setParams.current = setSearchParams;
  useEffect(() => {
    if (filters !== initial.current) setParams.current(toSearchParams(filters), { replace: true });
  }, [filters]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    search.submit();
  };

  const freshLoad = status === 'searching';
  const loadingMore = status === 'loadingMore';
  const items = freshLoad ? [] : search.items;

  return (
    <section ref={boot} className={css.page} aria-labelledby="page-title" data-boot-page="merchant">
      <h1 id="page-title" className={css.title} tabIndex={-1}>
        {t('list.title')}
      </h1>
      <p className={css.lead}>{t('list.lead')}</p>

      <form role="search" aria-label={t('list.filtersTitle')} className={css.filters} onSubmit={submit}>
        <div className={css.field}>
          <label htmlFor={ids.search} className={css.label}>
            {t('list.searchLabel')}
          </label>
          <input
            id={ids.search}
            type="search"
            className={css.input}
            value={filters.q}
            placeholder={t('list.searchPlaceholder')}
            maxLength={100}
            autoComplete="off"
            onChange={(e) => search.type(e.target.value)}
          />
        </div>
        <div className={css.field}>
          <label htmlFor={ids.category} className={css.label}>
            {t('list.categoryLabel')}
          </label>
          <select
            id={ids.category}
            className={css.input}
            value={filters.category}
            onChange={(e) => search.filter({ category: e.target.value as Filters['category'] })}
          >
            <option value="">{t('list.allCategories')}</option>
            {MERCHANT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`category.${c}`)}
              </option>
            ))}
          </select>
        </div>
        <div className={css.field}>
          <label htmlFor={ids.source} className={css.label}>
            {t('list.sourceLabel')}
          </label>
          <select
            id={ids.source}
            className={css.input}
            value={filters.source}
            onChange={(e) => search.filter({ source: e.target.value as Filters['source'] })}
          >
            <option value="">{t('list.allSources')}</option>
            {MERCHANT_SOURCES.map((s) => (
              <option key={s} value={s}>
                {t(`source.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </form>

      <p role="status" className={css.status}>
        {freshLoad ? t('list.loading') : loadingMore ? t('list.loadingMore') : status === 'showing' && items.length ? t('list.count', { count: items.length }) : ''}
      </p>

      {status === 'failed' && (
        <div role="alert" className={css.alert}>
          <h2 className={css.alertTitle}>{t('list.errorTitle')}</h2>
          <p>{error?.message}</p>
          <button type="button" className={button} onClick={search.retry}>
            {t('list.retry')}
          </button>
        </div>
      )}

      {status === 'showing' && items.length === 0 && (
        <div className={css.notice}>
          <p>
            <strong>{t('list.empty')}</strong>
          </p>
          <p>{t('list.emptyHelp')}</p>
          <button type="button" className={buttonSecondary} onClick={() => search.filter({ q: '', category: '', source: '' })}>
            {t('list.clear')}
          </button>
        </div>
      )}

      {(items.length > 0 || freshLoad || loadingMore) && (
        <ul className={css.grid} aria-busy={freshLoad || loadingMore}>
          {items.map((m) => (
            <li key={m.id}>
              <MerchantCard merchant={m} />
            </li>
          ))}
          {(freshLoad || loadingMore) &&
            Array.from({ length: SKELETONS }, (_, i) => (
              <li key={`skeleton-${i}`} aria-hidden="true" data-testid="merchant-skeleton">
                <div className={css.skeleton} />
              </li>
            ))}
        </ul>
      )}

      {search.hasMore && status === 'showing' && (
        <div className={css.more}>
          <button type="button" className={buttonSecondary} onClick={search.showMore}>
            {t('list.more')}
          </button>
        </div>
      )}
    </section>
  );
}

function MerchantCard({ merchant: m }: { merchant: Merchant }) {
  const { t } = useTranslation('merchant');
  return (
    <Link to={`/merchant/details/${m.id}`} className={css.card}>
      <img src={m.logoUrl} alt="" width={64} height={64} className={css.logo} loading="lazy" />
      <div>
        <h2 className={css.cardName}>{m.name}</h2>
        {m.matchedProduct && <p className={css.cardMeta}>{t('list.matchedProduct', { product: m.matchedProduct })}</p>}
        <p className={css.cardMeta}>
          {t(`category.${m.category}`)}
          {m.priceFrom !== null && (
            <>
              {' · '}
              {t('list.priceFrom', { price: formatKr(m.priceFrom) })}
            </>
          )}
        </p>
        <ul className={css.tags}>
          {m.sources.map((s) => (
            <li key={s} className={css.tag}>
              <span className={visuallyHidden}>{t(`source.${s}`)}</span>
              <span aria-hidden="true">{t(`sourceShort.${s}`)}</span>
            </li>
          ))}
        </ul>
      </div>
    </Link>
  );
}
