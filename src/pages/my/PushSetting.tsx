import { useTranslation } from 'react-i18next';
import { useWebPush } from '../../components/webPush.ts';
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
  return (
    <section className={css.card} aria-labelledby="push-title">
      <h2 id="push-title" className={css.cardTitle}>
        {t('push.title')}
      </h2>
      <div className={css.switchRow}>
        <div className={css.field}>
          <span id="push-label" className={css.label}>
            {t('push.label')}
          </span>
          <p id="push-text" className={css.hint}>
            {t('push.text')}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          className={css.switchButton}
          aria-checked={on}
          aria-labelledby="push-label"
          aria-describedby={push.failed || unavailable ? 'push-text push-problem' : 'push-text'}
          aria-busy={push.busy || undefined}
          disabled={unavailable || push.state === 'checking'}
          onClick={() => {
            if (push.busy) return;
            void (on ? push.turnOff() : push.turnOn());
          }}
        />
      </div>
      <p className={css.switchState} aria-live="polite">
        {push.busy ? t('push.saving') : on ? t('push.on') : t('push.off')}
      </p>
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
    </section>
  );
}
