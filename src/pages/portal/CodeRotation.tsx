import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { useCodeRotation } from './useCodeRotation.ts';
import * as css from './portal.css.ts';

type Copy = 'idle' | 'copied' | 'failed';

/**
 * Copies `text`: the clipboard API where the page may use it; otherwise the text in `element` is
 * selected and copied the old way. False when neither worked (the person copies it by hand; the
 * code stays selected).
 */
export async function copyText(text: string, element: HTMLElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, not a secure context): the old way below.
  }
  if (!element) return false;
  const selection = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(element);
  selection?.removeAllRanges();
  selection?.addRange(range);
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

/**
 * "Byt handlarkod" for the owner (machines/codeRotation.ts through useCodeRotation): a dialog
 * says that the old code stops working at once at every till; the new code is then shown once,
 * large, with 'Kopiera', until 'Jag har sparat koden'. The code is only on screen and in the
 * clipboard when asked: never logged, never stored.
 */
export function CodeRotation({ merchantId }: { merchantId: string }) {
  const { t } = useTranslation('portal');
  const rotation = useCodeRotation(merchantId);
  const { screen, merchantCode, failure } = rotation;
  const [copy, setCopy] = useState<Copy>('idle');
  const codeRef = useRef<HTMLElement>(null);
  const open = screen !== 'ready';
  const busy = screen === 'busy';

  const onOpenChange = (next: boolean) => {
    if (next) return;
    // Escape or the overlay: a confirmation is cancelled, a failure closed; the new code stays
    // until the owner says it is saved, and nothing interrupts the rotation.
    if (screen === 'confirming') rotation.cancel();
    if (screen === 'failed') rotation.close();
  };

  return (
    <section aria-labelledby="code-title">
      <h2 id="code-title" className={css.sectionTitle}>
        {t('code.title')}
      </h2>
      <p className={css.muted}>{t('code.lead')}</p>
      <div className={css.actions}>
        <button
          type="button"
          className={buttonSecondary}
          onClick={() => {
            setCopy('idle');
            rotation.start();
          }}
        >
          {t('code.rotate')}
        </button>
      </div>
      <Dialog.Root open={open} onOpenChange={onOpenChange}>
        <Dialog.Portal>
          <Dialog.Overlay className={css.overlay} />
          <Dialog.Content
            className={css.dialog}
            onEscapeKeyDown={(e) => (screen === 'shown' || busy) && e.preventDefault()}
            onPointerDownOutside={(e) => (screen === 'shown' || busy) && e.preventDefault()}
            aria-busy={busy || undefined}
          >
            {(screen === 'confirming' || busy) && (
              <>
                <Dialog.Title className={css.dialogTitle}>{t('code.confirmTitle')}</Dialog.Title>
                <Dialog.Description>{t('code.confirmText')}</Dialog.Description>
                {busy && (
                  <p role="status" className={css.status}>
                    {t('code.rotating')}
                  </p>
                )}
                <div className={css.actions}>
                  <button type="button" className={button} onClick={rotation.confirm} disabled={busy}>
                    {t('code.confirm')}
                  </button>
                  <button type="button" className={buttonSecondary} onClick={rotation.cancel} disabled={busy}>
                    {t('code.cancel')}
                  </button>
                </div>
              </>
            )}
            {screen === 'shown' && merchantCode && (
              <>
                <Dialog.Title className={css.dialogTitle}>{t('code.shownTitle')}</Dialog.Title>
                <Dialog.Description>{t('code.shownText')}</Dialog.Description>
                <code ref={codeRef} className={css.code} data-testid="new-merchant-code">
                  {merchantCode}
                </code>
                <div aria-live="polite">
                  {copy === 'copied' && <p className={css.status}>{t('code.copied')}</p>}
                  {copy === 'failed' && <p className={css.error}>{t('code.copyFailed')}</p>}
                </div>
                <div className={css.actions}>
                  <button
                    type="button"
                    className={buttonSecondary}
                    onClick={() => void copyText(merchantCode, codeRef.current).then((ok) => setCopy(ok ? 'copied' : 'failed'))}
                  >
                    {t('code.copy')}
                  </button>
                  <button
                    type="button"
                    className={button}
                    onClick={() => {
                      setCopy('idle');
                      rotation.saved();
                    }}
                  >
                    {t('code.saved')}
                  </button>
                </div>
              </>
            )}
            {screen === 'failed' && (
              <>
                <Dialog.Title className={css.dialogTitle}>{t('code.failedTitle')}</Dialog.Title>
                <Dialog.Description role="alert" className={css.error}>
                  {failure?.message} {t('code.failedText')}
                </Dialog.Description>
                <div className={css.actions}>
                  <button type="button" className={button} onClick={rotation.close}>
                    {t('code.close')}
                  </button>
                </div>
              </>
            )}
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
