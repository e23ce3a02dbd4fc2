/**
 * index.html's #boot-frame: the greetie's first frame, which the server puts into the page for
 * /greetie/view/{refId} so it is painted before any script runs (server/spa/viewShell.ts, decision
 * 090). It lies over the app's loading screens at exactly the place of the view's stage; the page
 * takes it away once its own image of the same file is there, or when there is nothing to show.
 */

import { afterEntrance } from '../../../components/bootPage.ts';

const frame = () => (typeof document === 'undefined' ? null : document.getElementById('boot-frame'));

export function removeBootFrame(): void {
  frame()?.remove();
}

/**
 * Removes the frame once `img` (the stage's first frame, the same file at the same place) is
 * decoded and the page's entrance transition is over, so nothing under it moves or fades when it
 * goes.
 */
export function handOverBootFrame(img: HTMLImageElement): void {
  const boot = frame();
  if (!boot) return;
  const decoded = typeof img.decode === 'function' ? img.decode().catch(() => undefined) : Promise.resolve();
  afterEntrance(img, [decoded], () => boot.remove());
}
