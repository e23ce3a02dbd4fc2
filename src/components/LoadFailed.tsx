import { useTranslation } from 'react-i18next';
import { button, errorBox, errorBoxTitle } from './ui.css.ts';

/** A failed load: what failed, the reason, and (when it may help) a way to try again. */
export function LoadFailed({ title, message, retry }: { title: string; message: string | undefined; retry?: (() => void) | undefined }) {
  const { t } = useTranslation('voucher');
  return (
    <div role="alert" className={errorBox}>
      <h2 className={errorBoxTitle}>{title}</h2>
      {message && <p>{message}</p>}
      {retry && (
        <button type="button" className={button} onClick={retry}>
          {t('retry')}
        </button>
      )}
    </div>
  );
}
