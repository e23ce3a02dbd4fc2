import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { MyHeading, ProfileFailed, ProfileLoading } from './MyNav.tsx';
import { useProfile } from './useProfile.ts';
import { PushSetting } from './PushSetting.tsx';
import * as css from './my.css.ts';

/** /my/settings: the marketing consent, a switch saved as soon as it is turned. */
export function SettingsPage() {
  const { t } = useTranslation('my');
  usePageTitle(t('settings.title'));
  const user = useSessionUser();
  return (
    <div className={css.page}>
      <MyHeading title={t('settings.title')} />
      {user && <Settings userId={user.id} />}
      {user && <PushSetting />}
    </div>
  );
}

function Settings({ userId }: { userId: string }) {
  const { t } = useTranslation('my');
  const p = useProfile({ userId });
  if (p.status === 'failed') return <ProfileFailed message={p.error?.message} retry={p.retry} />;
  if (p.status !== 'ready' || !p.profile) return <ProfileLoading />;
  const on = p.profile.allowMarketing;
  const failed = p.error?.field === 'marketing';
  return (
    <section className={css.card} aria-labelledby="marketing-title">
      <h2 id="marketing-title" className={css.cardTitle}>
        {t('settings.marketingTitle')}
      </h2>
      <div className={css.switchRow}>
        <div className={css.field}>
          <span id="marketing-label" className={css.label}>
            {t('settings.marketingLabel')}
          </span>
          <p id="marketing-text" className={css.hint}>
            {t('settings.marketingText')}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          className={css.switchButton}
          aria-checked={on}
          aria-labelledby="marketing-label"
          aria-describedby={failed ? 'marketing-text marketing-error' : 'marketing-text'}
          aria-busy={p.savingMarketing || undefined}
          onClick={() => {
            if (!p.savingMarketing) p.setMarketing(!on);
          }}
        />
      </div>
      <p className={css.switchState} aria-live="polite">
        {p.savingMarketing ? t('settings.saving') : on ? t('settings.on') : t('settings.off')}
      </p>
      {failed && (
        <p id="marketing-error" className={css.error} role="alert">
          {t('marketingError')}
        </p>
      )}
    </section>
  );
}
