import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ACCESSIBILITY_PATH, PRIVACY_PATH, TERMS_PATH } from '../../components/legalPaths.ts';
import * as css from './footer.css.ts';

/** The site's footer (public pages and the user's areas): the terms, the privacy policy and the accessibility statement, a tap away from every page that sells. */
export function Footer() {
  const { t } = useTranslation('legal');
  return (
    <footer className={css.footer}>
      <nav className={css.inner} aria-label={t('footer.label')}>
        <p className={css.brand}>Greetie</p>
        <ul className={css.links}>
          <li>
            <Link className={css.link} to={TERMS_PATH}>
              {t('footer.terms')}
            </Link>
          </li>
          <li>
            <Link className={css.link} to={PRIVACY_PATH}>
              {t('footer.privacy')}
            </Link>
          </li>
          <li>
            <Link className={css.link} to={ACCESSIBILITY_PATH}>
              {t('footer.accessibility')}
            </Link>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
