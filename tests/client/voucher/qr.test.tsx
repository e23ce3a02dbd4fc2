import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor } from '@testing-library/react';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { QR_REFRESH_MS } from '../../../machines/voucherQr.ts';
import { spacedToken } from '../../../src/pages/voucher/VoucherQrCode.tsx';
import { charity, instore, redeemedNow } from '../../fixtures/vouchers.ts';
import { fakeVoucherServer, json } from './server.ts';

/**
 * The QR on an in-store voucher's page (/voucher/{id}; machines/voucherQr.ts, decision 107): a QR
 * code large enough for the till with the token as text under it, renewed before it runs out and
 * when the page is shown again, and the merchant code still there as the other way.
 */

vi.setConfig({ testTimeout: 15_000 });
configure({ asyncUtilTimeout: 5_000 });

let server: ReturnType<typeof fakeVoucherServer>;
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
  server = fakeVoucherServer();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const session = signedIn({ id: 'u1', name: 'Anna Andersson' });
const qrCalls = (id: string) => server.calls.filter((c) => c.method === 'GET' && c.path === `/api/voucher/${id}/qr`).length;

describe('the voucher QR', () => {
  it('shows a scannable QR (≥ 240 px, quiet zone, black on white) with the token spaced under it, and the merchant code as the other way', async () => {
    server.answer(`GET /api/voucher/${instore.id}/qr`, () => json(200, { token: 'ABCDE23456', expiresAt: new Date(Date.now() + 120_000).toISOString() }));
    renderRoute(`/voucher/${instore.id}`, { session });
    const qr = await screen.findByRole('img', { name: 'QR-kod för kassan' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    const size = Number(qr.getAttribute('viewBox')!.split(' ')[2]);
    // A version-1 QR is 21 modules; the quiet zone adds 4 on each side.
    expect(size).toBeGreaterThanOrEqual(21 + 8);
    const [background, modules] = [qr.querySelector('rect')!, qr.querySelector('path')!];
    expect(background.getAttribute('fill')).toBe('#ffffff');
    expect(modules.getAttribute('fill')).toBe('#000000');
    // Nothing dark inside the quiet zone: every module drawn starts at 4 or more.
    for (const m of modules.getAttribute('d')!.matchAll(/M(\d+) (\d+)/g)) {
      expect(Number(m[1])).toBeGreaterThanOrEqual(4);
      expect(Number(m[2])).toBeLessThan(size - 4);
    }
    expect(qr.getAttribute('class')).toBeTruthy();
    expect(screen.getByTestId('voucher-qr-token')).toHaveTextContent('ABCDE 23456');
    expect(screen.getByText(/Personalen skannar den, eller skriver koden under den/)).toBeInTheDocument();
    expect(screen.getByText('Eller visa koden i stället: personalen skriver handlarkoden på din telefon.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Lös in i butiken' })).toHaveAttribute('href', `/redeem/voucher/${instore.id}`);
  });

  it('asks for a new token after 100 s and when the page becomes visible again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderRoute(`/voucher/${instore.id}`, { session });
    const first = (await screen.findByTestId('voucher-qr-token')).textContent;
    expect(qrCalls(instore.id)).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(QR_REFRESH_MS);
    });
    await waitFor(() => expect(qrCalls(instore.id)).toBe(2));
    await waitFor(() => expect(screen.getByTestId('voucher-qr-token').textContent).not.toBe(first));
    // The phone comes out of the pocket: a fresh token at once.
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(qrCalls(instore.id)).toBe(3));
  });

  it('a token that cannot be had says why, offers to try again, and the merchant code stays', async () => {
    let fail = true;
    server.answer(`GET /api/voucher/${instore.id}/qr`, () =>
      fail ? json(503, { code: 'DB_UNAVAILABLE', message: 'Databasen svarar inte.' }) : json(200, { token: 'KLMNP34567', expiresAt: new Date(Date.now() + 120_000).toISOString() }),
    );
    const { user } = renderRoute(`/voucher/${instore.id}`, { session });
    expect(await screen.findByText('Det gick inte att visa QR-koden. Databasen svarar inte.')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'Lös in i butiken' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Visa QR-koden igen' }));
    expect(await screen.findByTestId('voucher-qr-token')).toHaveTextContent('KLMNP 34567');
  });

  it('is not shown for a used-up voucher, nor for one that is not used in a shop', async () => {
    server = fakeVoucherServer([redeemedNow(instore, new Date().toISOString()), charity]);
    renderRoute(`/voucher/${charity.id}`, { session });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('img', { name: 'QR-kod för kassan' })).not.toBeInTheDocument();
    expect(qrCalls(charity.id)).toBe(0);
  });

  it('spaces the token in two groups of five for reading aloud', () => {
    expect(spacedToken('ABCDE23456')).toBe('ABCDE 23456');
  });
});
