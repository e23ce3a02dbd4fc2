import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { useBootPageHandOver } from '../../components/bootPage.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import * as css from './landing.css.ts';

const steps = [1, 2, 3] as const;

/** '/': what Greetie is, how it works in three steps, and the way in (send one, or browse merchants). */
export function LandingPage() {
  const { t } = useTranslation('landing');
  usePageTitle(t('landing.documentTitle'));
  // The server paints this hero from the HTML first (decision 094); it goes once this one is in place.
  const hero = useBootPageHandOver<HTMLElement>();
  return (
    <>
      <section ref={hero} className={css.hero} aria-labelledby="page-title" data-boot-page="landing">
        <div className={css.heroInner}>
          <div>
            <p className={css.eyebrow}>{t('landing.eyebrow')}</p>
            <h1 id="page-title" className={css.title}>
              {t('landing.title')}
            </h1>
            <p className={css.lead}>{t('landing.lead')}</p>
            <div className={css.ctas}>
              <Link to="/greetie/new" className={button}>
                {t('landing.ctaSend')}
              </Link>
              <Link to="/merchant" className={buttonSecondary}>
                {t('landing.ctaMerchants')}
              </Link>
            </div>
          </div>
          <figure className={css.preview} role="img" aria-label={t('landing.previewAlt')}>
            <svg className={css.previewEmoji} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
              <rect x="6" y="20" width="36" height="22" rx="4" fill="#fff" />
              <rect x="4" y="14" width="40" height="9" rx="3" fill="#FFD6EA" />
              <rect x="21" y="14" width="6" height="28" fill="#ED5AA4" />
              <path d="M24 14c-3-7-12-8-12-3s8 3 12 3Zm0 0c3-7 12-8 12-3s-8 3-12 3Z" fill="#fff" />
            </svg>
            <p className={css.previewGreeting} aria-hidden="true">
              {t('landing.previewGreeting')}
            </p>
            <span className={css.previewGift} aria-hidden="true">
              {t('landing.previewGift')}
            </span>
          </figure>
        </div>
      </section>

      <section className={css.section} aria-labelledby="how-title">
        <h2 id="how-title" className={css.sectionTitle}>
          {t('landing.howTitle')}
        </h2>
        <ol className={css.steps}>
          {steps.map((n) => (
            <li key={n} className={css.step}>
              <span className={css.stepNumber} aria-hidden="true">
                {n}
              </span>
              <h3 className={css.stepTitle}>{t(`landing.step${n}Title`)}</h3>
              <p className={css.stepText}>{t(`landing.step${n}Text`)}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className={css.section}>
        <div className={css.cards}>
          <article className={css.card} aria-labelledby="merchants-title">
            <h2 id="merchants-title" className={css.cardTitle}>
              {t('landing.merchantsTitle')}
            </h2>
            <p>{t('landing.merchantsText')}</p>
            <Link to="/merchant" className={buttonSecondary}>
              {t('landing.merchantsCta')}
            </Link>
          </article>
          <article className={css.card} aria-labelledby="received-title">
            <h2 id="received-title" className={css.cardTitle}>
              {t('landing.receivedTitle')}
            </h2>
            <p>{t('landing.receivedText')}</p>
            <Link to="/auth/jwt/login" className={buttonSecondary}>
              {t('landing.receivedCta')}
            </Link>
          </article>
        </div>
      </section>
    </>
  );
}
