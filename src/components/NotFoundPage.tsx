import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle.ts';
import { button, buttonSecondary, container } from './ui.css.ts';
import * as css from './notFound.css.ts';

/** /404: where every unknown path lands. Says what happened and offers the way back. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.notFound.title'));
  return (
    <section className={container} aria-labelledby="page-title">
      <div className={css.box}>
        <p className={css.code} aria-hidden="true">
          404
        </p>
        <h1 id="page-title" className={css.title}>
          {t('pages.notFound.title')}
        </h1>
        <p>{t('notFound.text')}</p>
        <p className={css.help}>{t('notFound.help')}</p>
        <div className={css.actions}>
          <Link to="/" className={button}>
            {t('notFound.home')}
          </Link>
          <Link to="/merchant" className={buttonSecondary}>
            {t('notFound.merchants')}
          </Link>
        </div>
      </div>
    </section>
  );
}
