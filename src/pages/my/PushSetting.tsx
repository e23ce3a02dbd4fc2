import { useTranslation } from 'react-i18next';
import { useWebPush } from '../../components/webPush.ts';
import { SwitchCard } from './SwitchCard.tsx';
import * as css from './my.css.ts';

/**
 * /my/settings: notifications in this browser (Web Push), a switch. The browser asks for
 * permission only when the user turns it on; a refusal is explained, never asked again by us.
 */
export function PushSetting() {
  const { t } = useTranslation('notifications');
  const push = useWebPush();
  const on = push.state === 'on';
  const unavailable = push.state === 'unsupported' || push.state === 'denied';
  const problem =
    unavailable || push.failed ? (
      <>
        {unavailable && (
          <p id="push-problem" className={css.hint}>
            {push.state === 'denied' ? t('push.denied') : t('push.unsupported')}
          </p>
        )}
        {push.failed && (
          <p id="push-problem" className={css.error} role="alert">
            {t('push.failed')}
          </p>
        )}
      </>
    ) : undefined;
  return (
    <SwitchCard
      id="push"
      title={t('push.title')}
      label={t('push.label')}
      text={t('push.text')}
      on={on}
      busy={push.busy}
      disabled={unavailable || push.state === 'checking'}
      stateText={push.busy ? t('push.saving') : on ? t('push.on') : t('push.off')}
      problem={problem}
      onToggle={() => void (on ? push.turnOff() : push.turnOn())}
    />
  );
}
