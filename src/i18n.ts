import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, languages, type Language } from './format/language.ts';

export { defaultLanguage, languages, type Language };

/**
 * Every string comes from locales/<lang>/<namespace>.json. Swedish is the default; the choice is
 * kept in localStorage under `i18nextLng` and mirrored on <html lang>.
 */
const modules = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });

export const storageKey = 'i18nextLng';

export function buildResources(): Record<string, Record<string, Record<string, unknown>>> {
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [file, mod] of Object.entries(modules)) {
    const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!m) continue;
    const [, lang, ns] = m as unknown as [string, string, string];
    (resources[lang] ??= {})[ns] = mod.default;
  }
  return resources;
}

export const namespaces = [...new Set(Object.keys(modules).map((f) => /\/([^/]+)\.json$/.exec(f)?.[1] ?? ''))].filter(Boolean);

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
  void instance.use(initReactI18next).init({
    resources: buildResources(),
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
