import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, languages, type Language } from './format/language.ts';
import { forgetOnNewPage } from './pageMemory.ts';

export { defaultLanguage, languages, type Language };

/**
 * Every string comes from locales/<lang>/<namespace>.json. Swedish is the default; the choice is
 * kept in localStorage under `i18nextLng` and mirrored on <html lang>.
 *
 * The first load carries only what every page's frame shows: Swedish `common` and `legal` (the
 * footer). Every other namespace, in either language, is a small lazy chunk of its own
 * (assets/i18n.<lang>-<namespace>-<hash>.js, vite.config.ts) that the backend below loads:
 * - each route group's `lazy` loads its namespaces beside its page chunk (src/app/routes.tsx,
 *   `loadNamespaces`), so a page renders with its strings already there: never a raw key, never a
 *   Suspense fallback for strings;
 * - `changeLanguage('en')` loads the English of every namespace loaded so far before it switches,
 *   so nothing shows half in Swedish; main.tsx waits for `languageReady` before the first render.
 * Unit tests load every file first (`loadAllLocales`, tests/client/setup.ts), so they render any
 * page in any language synchronously. Decision 011 has the figures.
 */

/** The frame's strings: in the first load. */
const frame = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/sv/common.json', '../locales/sv/legal.json'], { eager: true });

/**
 * Every other language and namespace: one lazy chunk each. Not `api`: the API client's own error
 * texts, which src/api/errors.ts imports itself (HTTP only, no i18next).
 */
const lazy = import.meta.glob<{ default: Record<string, unknown> }>([
  '../locales/*/*.json',
  '!../locales/sv/common.json',
  '!../locales/sv/legal.json',
  '!../locales/*/api.json',
]);

export const storageKey = 'i18nextLng';

type Strings = Record<string, unknown>;
const fileRe = /locales\/([^/]+)\/([^/]+)\.json$/;
const fileOf = (language: string, namespace: string) => `../locales/${language}/${namespace}.json`;

/** What has been loaded so far, by file: the frame's from the start, the others as they arrive. */
const loaded = new Map<string, Strings>(Object.entries(frame).map(([file, m]) => [file, m.default]));

function loadFile(file: string): Promise<Strings> {
  const done = loaded.get(file);
  if (done) return Promise.resolve(done);
  const load = lazy[file];
  if (!load) return Promise.resolve({});
  return load().then((m) => {
    loaded.set(file, m.default);
    return m.default;
  });
}

/**
 * Loads every language's every namespace, so that instances made afterwards have them all bundled
 * and render any page in any language synchronously: for unit tests (tests/client/setup.ts).
 */
export function loadAllLocales(): Promise<void> {
  return Promise.all(Object.keys(lazy).map(loadFile)).then(() => undefined);
}

/** The strings loaded so far (in the app: the frame's Swedish), language by language, namespace by namespace. */
export function buildResources(): Record<string, Record<string, Strings>> {
  const resources: Record<string, Record<string, Strings>> = {};
  for (const [file, strings] of loaded) {
    const m = fileRe.exec(file);
    if (m) (resources[m[1]!] ??= {})[m[2]!] = strings;
  }
  return resources;
}

/** The namespaces every page's frame uses (the header, the footer, the loading screen): in the first load. */
export const frameNamespaces = [...new Set(Object.keys(frame).map((f) => fileRe.exec(f)?.[2] ?? ''))].filter(Boolean);

/** i18next's backend: the lazy chunk of a language's namespace (at once when it is already loaded). */
const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => {},
  read: (language, namespace, callback) => {
    loadFile(fileOf(language, namespace)).then(
      (strings) => callback(null, strings),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};

/** Resolves once the strings of `instance`'s language are loaded (at once for Swedish). */
export function languageReady(instance: I18n): Promise<void> {
  return instance.loadLanguages(instance.language).then(() => undefined);
}

/** The instances createI18n made (the app makes one per page; unit tests one per render). */
const instances = new Set<I18n>();
let latest: I18n | null = null;
forgetOnNewPage(() => {
  instances.clear();
  latest = null;
});

/**
 * A `common` string in the language shown now, for code outside React (a toast an actor sends):
 * from the app's instance (the one made last).
 */
export function translate(key: string): string {
  return latest ? latest.t(key) : key;
}

/**
 * Loads `ns` (in the shown language and Swedish, the fallback) into every instance, so the pages
 * that use them render with their strings: route groups call it beside their page chunk, lazily
 * loaded parts of the frame beside theirs. At once when they are already there.
 */
export function loadNamespaces(ns: readonly string[]): Promise<void> {
  if (ns.length === 0) return Promise.resolve();
  return Promise.all([...instances].map((i) => i.loadNamespaces([...ns]))).then(() => undefined);
}

function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(storageKey);
    return v === 'en' || v === 'sv' ? v : defaultLanguage;
  } catch {
    return defaultLanguage;
  }
}

export function createI18n(lng: Language = storedLanguage()): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).use(lazyBackend).init({
    resources: buildResources(),
    // The bundled resources are only part of them: ask the backend for the rest.
    partialBundledLanguages: true,
    lng,
    fallbackLng: defaultLanguage,
    supportedLngs: [...languages],
    // Loaded at start: the frame's namespaces. Pages' namespaces are added as their routes load.
    ns: frameNamespaces,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  instances.add(instance);
  latest = instance;
  const apply = (l: string) => {
    if (typeof document !== 'undefined') document.documentElement.lang = l;
    try {
      localStorage.setItem(storageKey, l);
    } catch {
      /* private mode */
    }
  };
  apply(instance.language);
  instance.on('languageChanged', apply);
  return instance;
}
