import { useTranslation } from 'react-i18next';
import * as ToastPrimitive from '@radix-ui/react-toast';
import { useDismissToast, useToasts } from '../AppActors.tsx';
import * as css from './shell.css.ts';

/**
 * Renders the toast queue (machines/toasts.ts) with Radix Toast, top right. The machine decides
 * what is visible and for how long; Radix only draws, announces and handles swipe/close, so its
 * own timer is switched off (duration Infinity). Loaded on the first toast (see Toaster.tsx).
 */
export function ToastList() {
  const { t } = useTranslation();
  const toasts = useToasts();
  const dismiss = useDismissToast();
  return (
    <ToastPrimitive.Provider duration={Infinity} swipeDirection="right" label={t('toast.label')}>
      {toasts.map((toast) => (
        <ToastPrimitive.Root
          key={toast.id}
          className={css.toast}
          data-variant={toast.variant}
          type={toast.variant === 'error' ? 'foreground' : 'background'}
          open
          onOpenChange={(open) => {
            if (!open) dismiss(toast.id);
          }}
        >
          <ToastPrimitive.Description className={css.toastText}>{toast.message}</ToastPrimitive.Description>
          <ToastPrimitive.Close className={css.iconButton} aria-label={t('toast.close')}>
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className={css.toastViewport} label={t('toast.region')} />
    </ToastPrimitive.Provider>
  );
}
