/**
 * Build-time settings of the SPA (Vite `VITE_*` variables; set them in the environment or a
 * `.env` file before `npm run build`). Every one has a safe default, so nothing is required.
 *
 * | variable                 | default                               | meaning                                   |
 * |--------------------------|---------------------------------------|-------------------------------------------|
 * | VITE_API_BASE_URL        | '' (same origin)                      | where the API lives, e.g. https://api.x   |
 * | VITE_HOW_IT_WORKS_URL    | https://www.greetie.se/hur-fungerar-det | the header's 'Hur fungerar det?' link   |
 * | VITE_ABOUT_URL           | https://www.greetie.se/om-greetie     | the header's 'Om greetie' link            |
 * | VITE_ANALYTICS_ID        | none                                  | Google Analytics 4 measurement id (G-…);  |
 * |                          |                                       | analytics stay off without it, and even   |
 * |                          |                                       | with it until the visitor consents        |
 */

declare global {
  interface ImportMetaEnv {
    readonly VITE_API_BASE_URL?: string;
    readonly VITE_HOW_IT_WORKS_URL?: string;
    readonly VITE_ABOUT_URL?: string;
    readonly VITE_ANALYTICS_ID?: string;
  }
}

export interface Settings {
  apiBaseUrl: string;
  howItWorksUrl: string;
  aboutUrl: string;
  analyticsId: string | null;
}

export const defaultSettings: Settings = {
  apiBaseUrl: '',
  howItWorksUrl: 'https://www.greetie.se/hur-fungerar-det',
  aboutUrl: 'https://www.greetie.se/om-greetie',
  analyticsId: null,
};

const text = (v: string | undefined): string | undefined => {
  const t = v?.trim();
  return t ? t : undefined;
};

/** Reads settings from an env object (import.meta.env in the app; a plain object in tests). */
export function readSettings(env: Partial<Record<string, string | undefined>>): Settings {
  return {
    apiBaseUrl: (text(env.VITE_API_BASE_URL) ?? defaultSettings.apiBaseUrl).replace(/\/+$/, ''),
    howItWorksUrl: text(env.VITE_HOW_IT_WORKS_URL) ?? defaultSettings.howItWorksUrl,
    aboutUrl: text(env.VITE_ABOUT_URL) ?? defaultSettings.aboutUrl,
    analyticsId: text(env.VITE_ANALYTICS_ID) ?? defaultSettings.analyticsId,
  };
}

export const settings: Settings = readSettings(import.meta.env as unknown as Record<string, string | undefined>);
