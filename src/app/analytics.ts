/**
 * Analytics, off unless two things are true: a measurement id is configured (VITE_ANALYTICS_ID,
 * none by default) AND the visitor has said yes in the consent banner. Until then nothing is
 * loaded, no cookie is set and nothing is sent anywhere; the tracker (Google Analytics 4, gtag.js)
 * is the only thing in the app that ever comes from another origin.
 *
 * The answer is kept in localStorage under `greetie.analyticsConsent` ('granted' | 'denied'), so
 * the banner asks once; clearing site data asks again.
 */

import { forgetOnNewPage } from '../pageMemory.ts';

export const CONSENT_KEY = 'greetie.analyticsConsent';

export type Consent = 'granted' | 'denied';

export function readConsent(): Consent | null {
  try {
    const v = localStorage.getItem(CONSENT_KEY);
    return v === 'granted' || v === 'denied' ? v : null;
  } catch {
    return null;
  }
}

export function writeConsent(consent: Consent): void {
  try {
    localStorage.setItem(CONSENT_KEY, consent);
  } catch {
    /* private mode: the banner will ask again next visit */
  }
}

export function trackerScriptUrl(measurementId: string): string {
  return `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
}

type Gtag = (...args: unknown[]) => void;
interface AnalyticsWindow {
  dataLayer?: unknown[];
  gtag?: Gtag;
}

let loadedId: string | null = null;

/** Whether the tracker may load: only with a measurement id and a 'granted' consent. */
export function mayLoadAnalytics(measurementId: string | null | undefined, consent: Consent | null): measurementId is string {
  return typeof measurementId === 'string' && measurementId.trim() !== '' && consent === 'granted';
}

/**
 * Loads the tracker when allowed (once per page). Answers whether it is loaded.
 */
export function startAnalytics(measurementId: string | null | undefined, consent: Consent | null): boolean {
  if (!mayLoadAnalytics(measurementId, consent)) return false;
  if (loadedId) return true;
  const w = window as unknown as AnalyticsWindow;
  w.dataLayer = w.dataLayer ?? [];
  w.gtag = function gtag() {
    // gtag.js reads the `arguments` object itself, not an array.
    // eslint-disable-next-line prefer-rest-params
    w.dataLayer!.push(arguments);
  };
  w.gtag('js', new Date());
  // Page views are sent by trackPageView on each route change; IP addresses are not stored by GA4.
  w.gtag('config', measurementId, { send_page_view: false });
  const script = document.createElement('script');
  script.async = true;
  script.src = trackerScriptUrl(measurementId);
  script.dataset.analytics = 'true';
  document.head.appendChild(script);
  loadedId = measurementId;
  return true;
}

export function isAnalyticsLoaded(): boolean {
  return loadedId !== null;
}

/** Sends a page view when the tracker is loaded; does nothing otherwise. */
export function trackPageView(path: string): void {
  if (!loadedId) return;
  (window as unknown as AnalyticsWindow).gtag?.('event', 'page_view', {
    page_path: path,
    page_location: `${window.location.origin}${path}`,
    page_title: document.title,
  });
}

/** For tests: forget that the tracker was loaded. */
export function resetAnalyticsForTests(): void {
  loadedId = null;
  const w = window as unknown as AnalyticsWindow;
  delete w.dataLayer;
  delete w.gtag;
  document.querySelectorAll('script[data-analytics]').forEach((s) => s.remove());
}
forgetOnNewPage(resetAnalyticsForTests);
