/*
 * Starts the app once the first screen is painted (decision 152). The server's index.html names the
 * entry here (`/boot.js?entry=/assets/index-….js`) on the pages whose first screen it paints
 * (decision 094): that screen needs no script, and the entry, downloaded and evaluated before the
 * paint, delayed it, while Lighthouse's LCP estimate charged its whole download on a slow phone
 * network to the LCP.
 * "Painted" is the frame after the first screen's fonts and, on a greetie's view, its picture
 * (#boot-frame-img) have arrived (decision 156): the browser's first frame comes before either
 * (the text waits for its font, the picture for its bytes), and code fetched from then on arrived
 * before the largest paint, which the estimate then charged to it. A font or picture that never
 * arrives, or a hidden tab (which paints no frame), starts it by the timer.
 * `preload=` names the entry's static imports (the first load's code, decision 156): they are asked
 * for beside the entry, so the browser need not read the entry first to find them.
 */
const params = new URL(import.meta.url).searchParams;
const script = /^\/assets\/[\w.-]+\.js$/;
const entry = params.get('entry');
let started = false;
const start = () => {
  if (started || !entry || !script.test(entry)) return;
  started = true;
  for (const href of params.getAll('preload')) {
    if (!script.test(href)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.setAttribute('fetchpriority', 'low');
    link.href = href;
    document.head.append(link);
  }
  import(entry);
};
const arrived = (img) =>
  !img || img.complete
    ? undefined
    : new Promise((resolve) => {
        img.addEventListener('load', resolve, { once: true });
        img.addEventListener('error', resolve, { once: true });
      });
const afterPaint = (fn) => requestAnimationFrame(() => setTimeout(fn, 0));
// After the first frame: its layout has asked for the fonts the text uses, so `fonts.ready` waits for them.
afterPaint(() =>
  Promise.all([document.fonts ? document.fonts.ready : undefined, arrived(document.getElementById('boot-frame-img'))]).then(() => afterPaint(start)),
);
setTimeout(start, document.visibilityState === 'hidden' ? 1000 : 3000);
