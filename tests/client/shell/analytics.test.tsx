import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { Analytics } from '../../../src/app/shell/Analytics.tsx';
import {
  CONSENT_KEY,
  isAnalyticsLoaded,
  mayLoadAnalytics,
  resetAnalyticsForTests,
  startAnalytics,
} from '../../../src/app/analytics.ts';
import { readSettings } from '../../../src/settings.ts';
import { createI18n } from '../../../src/i18n.ts';

const trackerScripts = () => [...document.querySelectorAll('script')].filter((s) => s.src && !s.src.startsWith(location.origin));

function renderAnalytics(measurementId: string | null) {
  const router = createMemoryRouter([{ path: '*', element: <Analytics measurementId={measurementId} /> }], { initialEntries: ['/'] });
  render(
    <I18nextProvider i18n={createI18n('sv')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return { user: userEvent.setup(), router };
}

describe('analytics', () => {
  beforeEach(() => resetAnalyticsForTests());
  afterEach(() => resetAnalyticsForTests());

  it('has no measurement id by default', () => {
    expect(readSettings({}).analyticsId).toBeNull();
    expect(readSettings({ VITE_ANALYTICS_ID: 'G-TEST123' }).analyticsId).toBe('G-TEST123');
  });

  it('loads nothing without a measurement id, whatever the consent', () => {
    localStorage.setItem(CONSENT_KEY, 'granted');
    expect(mayLoadAnalytics(null, 'granted')).toBe(false);
    expect(startAnalytics(null, 'granted')).toBe(false);
    renderAnalytics(null);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(trackerScripts()).toEqual([]);
    expect(isAnalyticsLoaded()).toBe(false);
    expect((window as { gtag?: unknown }).gtag).toBeUndefined();
  });

  it('loads nothing with an id until the visitor consents, and nothing after a no', async () => {
    const { user } = renderAnalytics('G-TEST123');
    expect(screen.getByRole('heading', { name: 'Får vi räkna besök?' })).toBeInTheDocument();
    expect(trackerScripts()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Nej tack' }));
    expect(screen.queryByRole('heading', { name: 'Får vi räkna besök?' })).not.toBeInTheDocument();
    expect(localStorage.getItem(CONSENT_KEY)).toBe('denied');
    expect(trackerScripts()).toEqual([]);
    expect(isAnalyticsLoaded()).toBe(false);
  });

  it('does not ask again once answered, and stays off after a stored no', () => {
    localStorage.setItem(CONSENT_KEY, 'denied');
    renderAnalytics('G-TEST123');
    expect(screen.queryByRole('heading', { name: 'Får vi räkna besök?' })).not.toBeInTheDocument();
    expect(trackerScripts()).toEqual([]);
  });

  it('loads the tracker once after a yes, and sends page views', async () => {
    const { user, router } = renderAnalytics('G-TEST123');
    await user.click(screen.getByRole('button', { name: 'Ja, det går bra' }));
    expect(localStorage.getItem(CONSENT_KEY)).toBe('granted');
    const scripts = trackerScripts();
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe('https://www.googletagmanager.com/gtag/js?id=G-TEST123');
    await act(() => router.navigate('/merchant'));
    const layer = (window as unknown as { dataLayer: IArguments[] }).dataLayer.map((a) => [...a]);
    expect(layer).toContainEqual(['event', 'page_view', expect.objectContaining({ page_path: '/merchant' })]);
    expect(startAnalytics('G-TEST123', 'granted')).toBe(true);
    expect(trackerScripts()).toHaveLength(1);
  });

  it('loads with a stored yes without asking', () => {
    localStorage.setItem(CONSENT_KEY, 'granted');
    renderAnalytics('G-TEST123');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(trackerScripts()).toHaveLength(1);
  });
});
