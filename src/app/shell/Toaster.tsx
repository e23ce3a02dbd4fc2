import { lazy, Suspense, useState } from 'react';
import { useToasts } from '../AppActors.tsx';

const ToastList = lazy(() => import('./ToastList.tsx').then((m) => ({ default: m.ToastList })));

/**
 * The toasts, top right. Radix Toast is loaded with the first toast, not with the first page, to
 * keep the initial download small; from then on the list stays mounted.
 */
export function Toaster() {
  const toasts = useToasts();
  const [needed, setNeeded] = useState(false);
  if (!needed && toasts.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastList />
    </Suspense>
  );
}
