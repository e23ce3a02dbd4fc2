// Quicksand in the weights the styles use (400 body, 600 and 700 headings and buttons), the latin
// subset (Swedish: å, ä, ö, é are in it) and latin-ext for names beyond it; each face's
// unicode-range lets the browser download latin-ext only for a page that has such a character.
// The Vietnamese faces @fontsource's weight files also list are left out (decision 137).
// index.html preloads the two latin files the first paint uses (decision 011).
import '@fontsource/quicksand/latin-400.css';
import '@fontsource/quicksand/latin-ext-400.css';
import '@fontsource/quicksand/latin-600.css';
import '@fontsource/quicksand/latin-ext-600.css';
import '@fontsource/quicksand/latin-700.css';
import '@fontsource/quicksand/latin-ext-700.css';
import '../styles/global.css.ts';
// The rest in tasks (decision 156): each of src/boot/'s modules is one heavy part of the first load
// and ends by waiting for the next task, so no part of the start is one long task.
import { StrictMode, startTransition, createRoot } from './boot/react.ts';
import { createBrowserRouter } from './boot/router.ts';
import { createI18n, languageReady } from './boot/i18n.ts';
import { createAppActor, loadSession, maySignIn, startInspection } from './boot/actors.ts';
import { App, routes } from './boot/app.ts';
import { nextTask } from './boot/nextTask.ts';

/**
 * The app's start after its code is evaluated, also in tasks: the strings, the root actor, the
 * router, then React's first render.
 */
async function start(): Promise<void> {
  startInspection();
  // index.html paints a static shell in #root; React replaces it with the first render, which waits
  // only for the chosen language's strings (bundled for Swedish, one small chunk for English).
  const i18n = createI18n();
  await nextTask();
  // The app's root actor, started once for the page (not in a render: see App). It knows from storage
  // alone whether a session may be restored; the session's code loads beside the first render and
  // starts in it when it is there (decision 011): a visitor's first screen does not wait for it.
  const actor = createAppActor(undefined, { maySignIn: maySignIn() }).start();
  // A failed download is tried once more (a signed-in person waits for it on every page).
  loadSession().catch(() => setTimeout(() => loadSession().catch(() => undefined), 2000));
  await nextTask();
  // The router too: it runs the first route's loader as it is made (the greetie view's read).
  const router = createBrowserRouter(routes);
  await languageReady(i18n).catch(() => undefined);
  // The first render is a transition: React renders in slices and lets the browser paint and take
  // input between them, instead of one long task (the first screen is already painted from the
  // HTML, decision 094).
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App i18n={i18n} actor={actor} router={router} />
      </StrictMode>,
    ),
  );
}
void start();
