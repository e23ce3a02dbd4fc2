/*
 * Starts the app once the first screen is painted (decision 152). The server's index.html names the
 * entry here (`/boot.js?entry=/assets/index-….js`) and preloads it, so the code downloads at once;
 * only its evaluation waits for the frame after the first paint. The first screen is in the HTML
 * (decision 094) and needs no script; evaluating ~440 KB of code before that paint delayed it, and
 * Lighthouse's LCP estimate then counted the whole download on a slow phone network.
 * A hidden tab paints no frame: the timer starts it anyway.
 */
const entry = new URL(import.meta.url).searchParams.get('entry');
let started = false;
const start = () => {
  if (started || !entry || !/^\/assets\/[\w.-]+\.js$/.test(entry)) return;
  started = true;
  import(entry);
};
requestAnimationFrame(() => setTimeout(start, 0));
setTimeout(start, 1000);
