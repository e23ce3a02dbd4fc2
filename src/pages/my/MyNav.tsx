import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { button } from '../../components/ui.css.ts';
import * as css from './my.css.ts';

/** The heading of a my page and the links between the sections. */
export function MyHeading({ title }: { title: string }) {
  const { t } = useTranslation('my');
  return (
    <div className={css.heading}>
      <p className={css.eyebrow}>{t('title')}</p>
      <h1 id="page-title" className={css.title} tabIndex={-1}>
        {title}
      </h1>
      <nav aria-label={t('nav.label')}>
        <ul className={css.tabs}>
          <li>
            <NavLink to="/my/profile" className={css.tab}>
              {t('nav.profile')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/my/notifications" className={css.tab}>
              {t('nav.notifications')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/my/settings" className={css.tab}>
              {t('nav.settings')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/my/account" className={css.tab}>
              {t('nav.account')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/greetie" end className={css.tab}>
              {t('nav.greeties')}
            </NavLink>
          </li>
          <li>
            <NavLink to="/voucher" end className={css.tab}>
              {t('nav.vouchers')}
            </NavLink>
          </li>
        </ul>
      </nav>
    </div>
  );
}

/** While the profile loads: a placeholder card, and the words for screen readers. */
export function ProfileLoading() {
  const { t } = useTranslation('my');
  return (
    <div aria-busy="true">
      <p role="status" className={css.hint}>
        {t('loading')}
      </p>
      <div className={css.skeleton} aria-hidden="true" data-testid="profile-skeleton" />
    </div>
  );
}

/** The profile could not be loaded: the reason and a way to try again. */
export function ProfileFailed({ message, retry }: { message: string | undefined; retry: () => void }) {
  const { t } = useTranslation('my');
  return (
    <div role="alert" className={css.alert}>
      <h2 className={css.alertTitle}>{t('loadFailed.title')}</h2>
      {message && <p className={css.text}>{message}</p>}
      <button type="button" className={button} onClick={retry}>
        {t('loadFailed.retry')}
      </button>
    </div>
  );
}
