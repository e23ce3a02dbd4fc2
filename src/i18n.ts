import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, languages, type Language } from './format/language.ts';

export { defaultLanguage, languages, type Language };

/**
 * Every string comes from locales/<lang>/<namespace>.json. Swedish is the default; the choice is
 * kept in localStorage under `i18nextLng` and mirrored on <html lang>.
 *
 * Swedish (the default and the fallback language) is bundled with the app; English is one lazy
 * chunk (src/i18n.en.ts) that i18next loads through the small backend below when English is
 * chosen: `changeLanguage('en')` switches once the strings are there, so nothing shows half in
 * Swedish (decision 011). Before the first render, main.tsx waits for `languageReady`.
 */
// Unit tests (Vitest's mode 'test') render any language synchronously, so they bundle every
// language; the app's build bundles Swedish only (the other glob is dropped from it).
const bundled =
  import.meta.env.MODE === 'test'
    ? import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true })
    : import.meta.glob<{ default: Record<string, unknown> }>('../locales/sv/*.json', { eager: true });

export const storageKey = 'i18nextLng';

/** The bundled strings (Swedish in the app), language by language, namespace by namespace. */
export function buildResources(): Record<string, Record<string, Record<string, unknown>>> {
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [file, mod] of Object.entries(bundled)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (m) (resources[m[1]!] ??= {})[m[2]!] = mod.default;
  }
  return resources;
}

/** Every language has the same namespaces (tests/client/locales.test.ts). */
export const namespaces = [...new Set(Object.keys(bundled).map((f) => /\/([^/]+)\.json$/.exec(f)?.[1] ?? ''))].filter(Boolean);

const lazyLanguages: Partial<Record<Language, () => Promise<{ resources: Record<string, Record<string, unknown>> }>>> = {
  en: () => import('./i18n.en.ts'),
};

/** i18next's backend for the languages not bundled: one import per language, every namespace. */
const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => {},
  read: (language, namespace, callback) => {
    const load = lazyLanguages[language as Language];
    if (!load) return callback(null, {});
    load().then(
      (m) => callback(null, m.resources[namespace] ?? {}),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  },
};

/** Resolves once the strings of `instance`'s language are loaded (at once for Swedish). */
export function languageReady(instance: I18n): Promise<void> {
  return instance.loadLanguages(instance.language).then(() => undefined);
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
    // The bundled resources are only part of them: ask the backend for the other language.
    partialBundledLanguages: true,
    lng,
    fallbackLng: defaultLanguage,
    supportedLngs: [...languages],
    ns: namespaces,
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
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
