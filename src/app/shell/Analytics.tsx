import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { readConsent, startAnalytics, trackPageView, writeConsent, type Consent } from '../analytics.ts';
import { settings } from '../../settings.ts';
import * as css from './shell.css.ts';

/**
 * Asks for consent (only when a measurement id is configured and nobody has answered yet), loads
 * the tracker after a yes, and reports page views on route changes. Renders nothing otherwise.
 */
export function Analytics({ measurementId = settings.analyticsId }: { measurementId?: string | null }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [consent, setConsent] = useState<Consent | null>(() => readConsent());
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    setLoaded(startAnalytics(measurementId, consent));
  }, [measurementId, consent]);

  useEffect(() => {
    if (loaded) trackPageView(pathname);
  }, [loaded, pathname]);

  if (!measurementId || consent !== null) return null;

  const answer = (c: Consent) => {
    writeConsent(c);
    setConsent(c);
  };
  return (
    <section className={css.consent} aria-labelledby="consent-title">
      <h2 id="consent-title" className={css.consentTitle}>
        {t('consent.title')}
      </h2>
      <p className={css.consentText}>{t('consent.text')}</p>
      <div className={css.consentActions}>
        <button type="button" className={css.button} onClick={() => answer('granted')}>
          {t('consent.accept')}
        </button>
        <button type="button" className={css.buttonSecondary} onClick={() => answer('denied')}>
          {t('consent.decline')}
        </button>
      </div>
    </section>
  );
}
