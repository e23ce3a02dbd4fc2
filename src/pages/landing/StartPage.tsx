import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import * as css from './landing.css.ts';

const steps = [1, 2, 3] as const;

/** '/start': a short get-started page. */
export function StartPage() {
  const { t } = useTranslation('landing');
  usePageTitle(t('start.title'));
  return (
    <section className={css.startPage} aria-labelledby="page-title">
      <h1 id="page-title" className={css.title}>
        {t('start.title')}
      </h1>
      <p className={css.lead}>{t('start.lead')}</p>
      <ol className={css.startSteps}>
        {steps.map((n) => (
          <li key={n} className={css.step}>
            <span className={css.stepNumber} aria-hidden="true">
              {n}
            </span>
            <h2 className={css.stepTitle}>{t(`start.step${n}Title`)}</h2>
            <p className={css.stepText}>{t(`start.step${n}Text`)}</p>
          </li>
        ))}
      </ol>
      <div className={css.ctas}>
        <Link to="/greetie/new" className={button}>
          {t('start.ctaCreate')}
        </Link>
        <Link to="/auth/jwt/login" className={buttonSecondary}>
          {t('start.ctaLogin')}
        </Link>
        <Link to="/merchant" className={buttonSecondary}>
          {t('start.ctaMerchants')}
        </Link>
      </div>
    </section>
  );
}
