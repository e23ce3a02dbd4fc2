/*
 * Starts the app once the first screen is painted (decision 152). The server's index.html names the
 * entry here (`/boot.js?entry=/assets/index-….js`) on the pages whose first screen it paints
 * (decision 094): that screen needs no script, and the entry, downloaded and evaluated before the
 * paint, delayed it, while Lighthouse's LCP estimate charged its whole download on a slow phone
 * network to the LCP. A hidden tab paints no frame: the timer starts it anyway.
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
requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, 1000);
