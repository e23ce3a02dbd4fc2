/**
 * The language the page is shown in. src/i18n.ts keeps `<html lang>` in step with the language
 * switch, so code outside React (the API client, toasts sent by machines' actions) reads it here.
 */

export const languages = ['sv', 'en'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'sv';

/** `<html lang>`: English when it says 'en', otherwise (and outside a browser) Swedish. */
export function currentLanguage(): Language {
  return typeof document !== 'undefined' && document.documentElement.lang === 'en' ? 'en' : 'sv';
}
