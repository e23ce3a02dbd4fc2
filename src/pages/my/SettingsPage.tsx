import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { MyHeading, ProfileFailed, ProfileLoading } from './MyNav.tsx';
import { useProfile } from './useProfile.ts';
import { PushSetting } from './PushSetting.tsx';
import { SwitchCard } from './SwitchCard.tsx';
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
    <SwitchCard
      id="marketing"
      title={t('settings.marketingTitle')}
      label={t('settings.marketingLabel')}
      text={t('settings.marketingText')}
      on={on}
      busy={p.savingMarketing}
      stateText={p.savingMarketing ? t('settings.saving') : on ? t('settings.on') : t('settings.off')}
      problem={
        failed ? (
          <p id="marketing-problem" className={css.error} role="alert">
            {t('marketingError')}
          </p>
        ) : undefined
      }
      onToggle={() => p.setMarketing(!on)}
    />
  );
}
