import { Link, Navigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useLoader } from '../../components/useLoader.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, visuallyHidden } from '../../components/ui.css.ts';
import { portalMerchantsLoader } from './portal.ts';
import * as css from './portal.css.ts';

/**
 * /portal: the merchants the signed-in person works for (GET /portal/merchants). One: straight to
 * its page; several: a chooser; none: what these pages are and how to get access.
 */
export function PortalIndexPage() {
  const { t } = useTranslation('portal');
  const { status, data, error, retry } = useLoader(portalMerchantsLoader, undefined);
  const none = status === 'loaded' && data?.length === 0;
  usePageTitle(none ? t('index.noneTitle') : t('index.title'));

  if (status === 'loaded' && data?.length === 1) return <Navigate to={`/portal/${data[0]!.id}`} replace />;

  return (
    <section className={css.page} aria-labelledby="page-title" aria-busy={status === 'loading' || undefined}>
      {status === 'loading' && (
        <>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('index.title')}
          </h1>
          <p role="status" className={css.status}>
            {t('index.loading')}
          </p>
        </>
      )}
      {(status === 'failed' || status === 'notFound') && (
        <>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('index.title')}
          </h1>
          <LoadFailed title={t('index.errorTitle')} message={error?.message} retry={status === 'failed' ? retry : undefined} />
        </>
      )}
      {none && (
        <>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('index.noneTitle')}
          </h1>
          <p className={css.lead}>{t('index.noneText')}</p>
          <p className={css.lead}>{t('index.noneHow')}</p>
          <Link to="/" className={button}>
            {t('index.home')}
          </Link>
        </>
      )}
      {status === 'loaded' && data && data.length > 1 && (
        <>
          <h1 id="page-title" className={css.title} tabIndex={-1}>
            {t('index.title')}
          </h1>
          <p className={css.lead}>{t('index.chooseLead')}</p>
          <ul className={css.chooser}>
            {data.map((m) => (
              <li key={m.id}>
                <Link to={`/portal/${m.id}`} className={css.chooserLink}>
                  <span className={css.chooserName}>{m.name}</span>
                  <span className={css.muted}>
                    <span className={visuallyHidden}>, </span>
                    {t(`role.${m.role}`)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
