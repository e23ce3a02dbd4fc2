import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The first screen of '/', '/merchant' and '/auth/jwt/login' as static markup (decision
 * 094), so the page's largest text is painted from the HTML, before any script has run.
 *
 * Each is `#boot-page`: an inert, aria-hidden layer over the app's loading screens (outside #root,
 * which React owns), laid out by the CSS below exactly as the page lays out its own first screen
 * (the same elements, the same values as the vanilla-extract styles named beside each rule). The
 * page takes it away once its own render is in place and its entrance transition has ended
 * (src/components/bootPage.ts); a page of another route hides it at once (the `:has()` rule). The
 * React render is the same size, so the largest paint stays the early one and nothing moves.
 *
 * The words are the Swedish strings from locales/sv (read once at start): the language someone
 * chose is kept in localStorage, which the server cannot see, and Swedish is the default. A visitor
 * who chose English sees the Swedish first screen until the page takes over. Nothing personal is in
 * it: it is the same for everyone (the visitor's header; a signed-in person's avatar appears with
 * the app's header).
 */

export type FirstScreenRoute = 'landing' | 'merchant' | 'login';

/** The paths answered with a first screen, and which one. */
export const FIRST_SCREEN_PATHS: Record<string, FirstScreenRoute> = {
  '/': 'landing',
  '/merchant': 'merchant',
  '/merchant/list': 'merchant',
  '/auth/jwt/login': 'login',
};

type Strings = Record<string, unknown>;

const LOCALES = path.resolve(import.meta.dirname, '../../locales/sv');

function readStrings(ns: string): Strings {
  return JSON.parse(readFileSync(path.join(LOCALES, `${ns}.json`), 'utf8')) as Strings;
}

function lookup(strings: Strings, key: string): string {
  const value = key.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Strings)[k] : undefined), strings);
  if (typeof value !== 'string') throw new Error(`locales/sv: no string at ${key}`);
  return value;
}

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Quicksand for the layer, as a family of its own with `font-display: optional`: its text is laid
 * out once, never in a fallback first and again when the font arrives (a line that wraps
 * differently would move what is under it: a layout shift, measured 0.05 on '/' with `swap` and
 * with `block`). The files are the ones index.html preloads (the same URLs, fetched once); a
 * preloaded optional font is waited for briefly, so on all but a slow connection the layer is in
 * Quicksand; when it is not, the layer keeps the fallback until the page takes over.
 * `fonts`: the built files' URLs by weight.
 */
function bootFontFaces(fonts: Partial<Record<'400' | '600' | '700', string>>): string {
  return Object.entries(fonts)
    .map(([weight, url]) => `@font-face{font-family:"Quicksand Boot";font-style:normal;font-weight:${weight};font-display:optional;src:url(${url}) format("woff2")}`)
    .join('');
}

/** The Quicksand files (latin subset) that the built page refers to, by weight. */
export function quicksandFiles(html: string): Partial<Record<'400' | '600' | '700', string>> {
  const out: Partial<Record<'400' | '600' | '700', string>> = {};
  for (const m of html.matchAll(/\/assets\/quicksand-latin-(400|600|700)-normal-[\w-]+\.woff2/g)) out[m[1] as '400' | '600' | '700'] ??= m[0];
  return out;
}

/**
 * The layer's CSS. Values are the theme's (styles/theme.css.ts) and each page's styles; the
 * entry stylesheet (inlined before it) gives body, `img, svg` and form controls their global rules.
 */
export const firstScreenCss = (fonts: Partial<Record<'400' | '600' | '700', string>>) => bootFontFaces(fonts) + FIRST_SCREEN_RULES;

const FIRST_SCREEN_RULES = [
  // The layer: over #root, under nothing the app shows on top (toasts, dialogs).
  '.boot-page{position:absolute;top:0;left:0;right:0;z-index:20;min-height:100vh;background:#FFFFFF;pointer-events:none;font-family:"Quicksand Boot",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  // Another route's page is in place (a redirect, a link followed early): the layer goes at once.
  '#root:has([data-page-transition]>:first-child:not([data-boot-page]))~.boot-page{display:none}',
  // The header (src/app/shell/shell.css.ts: header, headerInner, logo, iconButton, desktopNav,
  // navLink, headerActions, languageSwitch, languageSelect; ui.css.ts container and button).
  '.bp-header{height:56px;background:rgba(255,255,255,.94);border-bottom:1px solid #E4DDE8}',
  '.bp-container{width:100%;max-width:1200px;margin:0 auto;padding:0 16px}',
  '.bp-header-inner{height:100%;display:flex;align-items:center;gap:16px}',
  '.bp-icon{display:inline-flex;align-items:center;justify-content:center;width:44px;height:44px;border:none;border-radius:8px;background:transparent;color:#1F1A24}',
  '.bp-logo{display:inline-flex;align-items:center;gap:8px;font-weight:700;font-size:1.375rem;color:#A51F66;text-decoration:none;border-radius:8px}',
  '.bp-logo svg{width:32px;height:32px;flex:none}',
  '.bp-nav{display:none;align-items:center;gap:4px;margin-left:24px}',
  '.bp-nav-list{list-style:none;margin:0;padding:0;display:flex;gap:4px}',
  '.bp-nav-link{display:inline-flex;align-items:center;min-height:44px;padding:0 16px;border-radius:8px;color:#1F1A24;font-weight:600;text-decoration:none}',
  '.bp-nav-link[aria-current="page"]{color:#A51F66;background:#FDE8F2}',
  '.bp-actions{margin-left:auto;display:flex;align-items:center;gap:8px}',
  '.bp-header .bp-desktop{display:none}',
  '.bp-lang{display:inline-flex;align-items:center;gap:4px;font-size:.875rem}',
  '.bp-lang select{min-height:40px;padding:0 8px;border:1px solid #E4DDE8;border-radius:8px;background:#FFFFFF;color:#1F1A24}',
  '.bp-button,.bp-button-secondary{display:inline-flex;align-items:center;justify-content:center;min-height:44px;padding:0 24px;border:none;border-radius:8px;background:#B8307A;color:#FFFFFF;font-weight:700;text-decoration:none}',
  '.bp-button-secondary{background:#FFFFFF;color:#A51F66;box-shadow:inset 0 0 0 2px #ED5AA4}',
  '.bp-session{visibility:hidden}',
  '.bp-main{display:block;min-height:60vh}',
  '@media screen and (min-width:900px){.bp-container{padding:0 24px}}',
  '@media screen and (min-width:1200px){.bp-header{height:80px}.bp-header .bp-mobile{display:none}.bp-nav{display:flex}.bp-header .bp-desktop{display:inline-flex}}',
  // '/' (src/pages/landing/landing.css.ts: hero, heroInner, eyebrow, title, lead, ctas, preview…).
  '.bp-hero{background:linear-gradient(180deg,#FDE8F2 0%,#FFFFFF 100%);padding:40px 0 64px}',
  '.bp-hero-inner{display:grid;gap:40px;align-items:center}',
  '.bp-eyebrow{margin:0;color:#A51F66;font-weight:700;text-transform:uppercase;letter-spacing:.08em;font-size:.8125rem}',
  '.bp-hero-title{margin:8px 0 16px;font-size:clamp(2rem,7vw,3.25rem);line-height:1.1;font-weight:700;text-wrap:balance}',
  '.bp-hero-lead{margin:0;font-size:1.125rem;color:#5C5566;max-width:40em}',
  '.bp-ctas{display:flex;flex-wrap:wrap;gap:8px;margin-top:24px}',
  '.bp-preview{justify-self:center;width:100%;max-width:300px;aspect-ratio:9/14;border-radius:16px;padding:16px;display:flex;flex-direction:column;justify-content:space-between;background:radial-gradient(circle at 30% 20%,#FFD6EA 0%,#ED5AA4 55%,#8E2A6A 100%);color:#FFFFFF;box-shadow:0 1px 2px rgba(31,26,36,.06),0 4px 16px rgba(31,26,36,.08)}',
  '.bp-preview svg{width:56px;height:56px}',
  '.bp-preview-greeting{margin:0;font-size:1.5rem;font-weight:700;line-height:1.2}',
  '.bp-preview-gift{align-self:flex-start;padding:4px 16px;border-radius:999px;background:rgba(255,255,255,.92);color:#A51F66;font-weight:700}',
  '@media screen and (min-width:900px){.bp-hero-inner{grid-template-columns:1.2fr 1fr}}',
  // '/merchant' (src/pages/merchant/merchant.css.ts: page, title, lead, filters, status; ui.css.ts
  // formField, formLabel, formInput).
  '.bp-merchants{padding-top:24px;padding-bottom:64px}',
  '.bp-merchants-title{margin:0 0 8px;font-size:clamp(1.75rem,5vw,2.5rem)}',
  '.bp-merchants-lead{margin:0 0 24px;color:#5C5566;max-width:44em}',
  '.bp-filters{display:grid;gap:16px;padding:16px;margin-bottom:24px;border-radius:16px;background:#FAF7FB}',
  '.bp-field{display:grid;gap:4px}',
  '.bp-field label{font-weight:700;font-size:.9375rem}',
  '.bp-field input,.bp-field select{min-height:44px;padding:0 16px;border:1px solid #E4DDE8;border-radius:8px;background:#FFFFFF;color:#1F1A24;width:100%;font:inherit}',
  '.bp-status{margin:0 0 16px;color:#5C5566;min-height:1.5em}',
  '@media screen and (min-width:900px){.bp-filters{grid-template-columns:2fr 1fr 1fr;align-items:end}}',
  // '/auth/jwt/login' (src/pages/auth/login.css.ts: page, card, home, title, text, form, label, input, hint).
  '.bp-login{min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;background:linear-gradient(135deg,#FDE8F2 0%,#FFFFFF 50%,#F3E8FB 100%)}',
  '.bp-login-card{width:100%;max-width:420px;background:#FFFFFF;border-radius:16px;box-shadow:0 1px 2px rgba(31,26,36,.06),0 4px 16px rgba(31,26,36,.08);padding:24px;display:flex;flex-direction:column;gap:16px}',
  '.bp-login-home{align-self:flex-start;color:#A51F66;font-weight:700;font-size:22px;text-decoration:none}',
  '.bp-login-title{margin:0;font-size:28px;color:#1F1A24}',
  '.bp-login-form{display:flex;flex-direction:column;gap:8px}',
  '.bp-login-text{margin:0;color:#5C5566;line-height:1.5}',
  '.bp-login-label{font-weight:700;color:#1F1A24}',
  '.bp-login-input{min-height:48px;padding:0 16px;font-size:18px;font-family:inherit;border-radius:8px;border:2px solid #E4DDE8;color:#1F1A24}',
  '.bp-login-hint{margin:0;font-size:14px;color:#5C5566}',
].join('');

const LOGO_SVG =
  '<svg viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="#ED5AA4"/><path d="M16 24.5s-7.5-4.6-7.5-10.1A4.2 4.2 0 0 1 16 12a4.2 4.2 0 0 1 7.5 2.4c0 5.5-7.5 10.1-7.5 10.1Z" fill="#fff"/></svg>';
const MENU_SVG =
  '<svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
const GIFT_SVG =
  '<svg viewBox="0 0 48 48" aria-hidden="true" focusable="false"><rect x="6" y="20" width="36" height="22" rx="4" fill="#fff"/><rect x="4" y="14" width="40" height="9" rx="3" fill="#FFD6EA"/><rect x="21" y="14" width="6" height="28" fill="#ED5AA4"/><path d="M24 14c-3-7-12-8-12-3s8 3 12 3Zm0 0c3-7 12-8 12-3s-8 3-12 3Z" fill="#fff"/></svg>';

/**
 * The visitor's public header (Header variant "public"): the menu button below 1200 px, the
 * navigation, the language switch and the place of 'Logga in' from 1200 px. `current`: the
 * navigation entry of the page (a key of `common`'s `nav`).
 */
export function publicHeader(common: Strings = readStrings('common'), current?: string): string {
  const t = (key: string) => escapeHtml(lookup(common, key));
  return (
    `<header class="bp-header"><div class="bp-container bp-header-inner">` +
    `<button type="button" class="bp-icon bp-mobile">${MENU_SVG}</button>` +
    `<a class="bp-logo" href="/">${LOGO_SVG}<span>Greetie</span></a>` +
    `<nav class="bp-nav"><ul class="bp-nav-list">` +
    ['nav.merchants', 'nav.howItWorks', 'nav.about']
      .map((k) => `<li><a class="bp-nav-link" href="/"${k === current ? ' aria-current="page"' : ''}>${t(k)}</a></li>`)
      .join('') +
    `</ul></nav>` +
    `<div class="bp-actions"><div class="bp-lang bp-desktop"><label>${t('language.label')}</label><select><option>${t('language.sv')}</option><option>${t('language.en')}</option></select></div>` +
    // 'Logga in' holds its place but is not shown: the app shows it to a visitor, or the account
    // menu in the same place to a signed-in person, who must not see 'Logga in' first.
    `<span class="bp-button bp-desktop bp-session">${t('nav.login')}</span></div>` +
    `</div></header>`
  );
}

/** The markup of each first screen (the layer's contents), built once from the Swedish strings. */
export function firstScreenMarkup(): Record<FirstScreenRoute, string> {
  const common = readStrings('common');
  const landing = readStrings('landing');
  const merchant = readStrings('merchant');
  const auth = readStrings('auth');
  const t = (strings: Strings, key: string) => escapeHtml(lookup(strings, key));

  const header = (current?: string) => publicHeader(common, current);

  const landingScreen =
    header() +
    `<main class="bp-main"><div><section class="bp-hero"><div class="bp-container bp-hero-inner"><div>` +
    `<p class="bp-eyebrow">${t(landing, 'landing.eyebrow')}</p>` +
    `<h1 class="bp-hero-title">${t(landing, 'landing.title')}</h1>` +
    `<p class="bp-hero-lead">${t(landing, 'landing.lead')}</p>` +
    `<div class="bp-ctas"><a class="bp-button" href="/">${t(landing, 'landing.ctaSend')}</a><a class="bp-button-secondary" href="/">${t(landing, 'landing.ctaMerchants')}</a></div>` +
    `</div><figure class="bp-preview">${GIFT_SVG}` +
    `<p class="bp-preview-greeting">${t(landing, 'landing.previewGreeting')}</p>` +
    `<span class="bp-preview-gift">${t(landing, 'landing.previewGift')}</span></figure>` +
    `</div></section></div></main>`;

  // The catalogue's title, lead, filters and 'Hämtar handlare…' (the page's own first render, before
  // the list has answered).
  const field = (label: string, control: string) => `<div class="bp-field"><label>${label}</label>${control}</div>`;
  const merchantScreen =
    header('nav.merchants') +
    `<main class="bp-main"><div><section class="bp-container bp-merchants">` +
    `<h1 class="bp-merchants-title">${t(merchant, 'list.title')}</h1>` +
    `<p class="bp-merchants-lead">${t(merchant, 'list.lead')}</p>` +
    `<form class="bp-filters">` +
    field(t(merchant, 'list.searchLabel'), `<input type="search" placeholder="${t(merchant, 'list.searchPlaceholder')}" />`) +
    field(t(merchant, 'list.categoryLabel'), `<select><option>${t(merchant, 'list.allCategories')}</option></select>`) +
    field(t(merchant, 'list.sourceLabel'), `<select><option>${t(merchant, 'list.allSources')}</option></select>`) +
    `</form><p class="bp-status">${t(merchant, 'list.loading')}</p>` +
    `</section></div></main>`;

  const loginScreen =
    `<main class="bp-login"><section class="bp-login-card">` +
    `<a class="bp-login-home" href="/">Greetie</a>` +
    `<h1 class="bp-login-title">${t(auth, 'login.title')}</h1>` +
    `<form class="bp-login-form"><p class="bp-login-text">${t(auth, 'login.intro')}</p>` +
    `<label class="bp-login-label">${t(auth, 'login.mobileNumber')}</label>` +
    `<input class="bp-login-input" type="tel" />` +
    `<p class="bp-login-hint">${t(auth, 'login.mobileNumberHint')}</p>` +
    `<button type="button" class="bp-button">${t(auth, 'login.sendCode')}</button></form>` +
    `</section></main>`;

  return { landing: landingScreen, merchant: merchantScreen, login: loginScreen };
}

/** The layer as it goes into the page, after #root. */
export function firstScreenLayer(route: FirstScreenRoute, markup: string): string {
  return `<div id="boot-page" class="boot-page" data-route="${route}" inert aria-hidden="true">${markup}</div>`;
}
