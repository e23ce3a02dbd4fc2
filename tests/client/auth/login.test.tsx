import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installDomStubs } from '../shell/render.tsx';
import { renderApp, testSession } from './render.tsx';

/** An ApiError-like failure as the real actors reject with. */
const apiFailure = (status: number, code: string, userMessage: string) => Object.assign(new Error(userMessage), { status, code, userMessage });

beforeEach(() => {
  installDomStubs();
});

async function atCodeStep(r: ReturnType<typeof renderApp>) {
  await r.user.type(await screen.findByLabelText('Mobilnummer'), '070-123 45 67');
  await r.user.click(screen.getByRole('button', { name: 'Skicka kod' }));
  return screen.findByLabelText('Kod');
}

describe('the login page (/auth/jwt/login)', () => {
  it('asks for the mobile number in a labelled tel field with a "Skicka kod" button', async () => {
    renderApp('/auth/jwt/login');
    const field = await screen.findByLabelText('Mobilnummer');
    expect(field).toHaveAttribute('type', 'tel');
    expect(field).toHaveAttribute('autocomplete', 'tel');
    expect(screen.getByRole('button', { name: 'Skicka kod' })).toBeEnabled();
    expect(screen.getByRole('heading', { level: 1, name: 'Logga in' })).toBeInTheDocument();
    // The title is set by an effect after the page is painted: on a busy machine that is a moment later.
    await waitFor(() => expect(document.title).toBe('Logga in · Greetie'));
  });

  it('refuses an invalid number before anything is sent, in a role="alert" region', async () => {
    const r = renderApp('/auth/jwt/login');
    await r.user.type(await screen.findByLabelText('Mobilnummer'), '08-123 456 78');
    await r.user.click(screen.getByRole('button', { name: 'Skicka kod' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Det där ser inte ut som ett svenskt mobilnummer');
    expect(screen.getByLabelText('Mobilnummer')).toHaveAttribute('aria-invalid', 'true');
    expect(r.fakes.requestCode).not.toHaveBeenCalled();
  });

  it('shows a busy "Skicka kod" while sending, then the code field', async () => {
    let release: (v: { token: string }) => void = () => {};
    const r = renderApp('/auth/jwt/login', { fakes: { requestCode: vi.fn(() => new Promise<{ token: string }>((res) => (release = res))) } });
    await r.user.type(await screen.findByLabelText('Mobilnummer'), '+46 70 123 45 67');
    await r.user.click(screen.getByRole('button', { name: 'Skicka kod' }));
    const busy = await screen.findByRole('button', { name: 'Skickar kod…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(r.fakes.requestCode).toHaveBeenCalledWith({ mobileNumber: '+46 70 123 45 67' });
    act(() => release({ token: 'verif-1' }));
    const code = await screen.findByLabelText('Kod');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Logga in' })).toBeEnabled();
    expect(screen.getByText(/Vi har skickat en kod till \+46 70 123 45 67/)).toBeInTheDocument();
  });

  it('shows the server’s reason under the number when no code could be sent', async () => {
    const r = renderApp('/auth/jwt/login', {
      fakes: { requestCode: vi.fn(async () => Promise.reject(apiFailure(429, 'CODE_RATE_LIMITED_NUMBER', 'Vänta 720 sekunder innan du ber om en ny.'))) },
    });
    await r.user.type(await screen.findByLabelText('Mobilnummer'), '0701234567');
    await r.user.click(screen.getByRole('button', { name: 'Skicka kod' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Vänta 720 sekunder innan du ber om en ny.');
    expect(screen.getByLabelText('Mobilnummer')).toHaveValue('0701234567');
  });

  it('shows a wrong code by the code field, and refuses a short code before sending', async () => {
    const r = renderApp('/auth/jwt/login', {
      fakes: { login: vi.fn(async () => Promise.reject(apiFailure(400, 'WRONG_CODE', 'Koden stämmer inte. Du har 4 försök kvar.'))) },
    });
    const code = await atCodeStep(r);
    await r.user.type(code, '123');
    await r.user.click(screen.getByRole('button', { name: 'Logga in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Koden består av 6 siffror');
    expect(r.fakes.login).not.toHaveBeenCalled();
    await r.user.type(code, '456');
    await r.user.click(screen.getByRole('button', { name: 'Logga in' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Koden stämmer inte. Du har 4 försök kvar.'));
    expect(r.fakes.login).toHaveBeenCalledWith({ token: 'verif-1', code: '123456', deviceId: '00000000-0000-0000-0000-000000000000' });
    expect(screen.getByLabelText('Kod')).toHaveAttribute('aria-invalid', 'true');
  });

  it('keeps only digits in the code field', async () => {
    const r = renderApp('/auth/jwt/login');
    const code = await atCodeStep(r);
    await r.user.type(code, '12 34-56789');
    expect(code).toHaveValue('123456');
  });

  it('goes back to change the number, keeping what was typed', async () => {
    const r = renderApp('/auth/jwt/login');
    await atCodeStep(r);
    await r.user.click(screen.getByRole('button', { name: 'Byt nummer' }));
    expect(await screen.findByLabelText('Mobilnummer')).toHaveValue('070-123 45 67');
    expect(screen.queryByLabelText('Kod')).not.toBeInTheDocument();
  });

  it('signs in and goes on to returnTo', async () => {
    const r = renderApp('/auth/jwt/login?returnTo=%2Fvoucher%3Ftab%3D2');
    const code = await atCodeStep(r);
    await r.user.type(code, '123456');
    await r.user.click(screen.getByRole('button', { name: 'Logga in' }));
    await waitFor(() => expect(r.router.state.location.pathname).toBe('/voucher'));
    expect(r.router.state.location.search).toBe('?tab=2');
  });

  it('answers in English when English is chosen', async () => {
    renderApp('/auth/jwt/login', { language: 'en' });
    expect(await screen.findByLabelText('Mobile number')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send code' })).toBeInTheDocument();
  });
});

describe('the resend countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('offers a new code after 30 seconds, and sends it to the same number', async () => {
    const r = renderApp('/auth/jwt/login', { advanceTimers: vi.advanceTimersByTime });
    await atCodeStep(r);
    expect(screen.getByText(/om 30 sekunder/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Skicka ny kod' })).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByText(/om 20 sekunder/)).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    await r.user.click(screen.getByRole('button', { name: 'Skicka ny kod' }));
    await waitFor(() => expect(r.fakes.requestCode).toHaveBeenCalledTimes(2));
    expect(r.fakes.requestCode).toHaveBeenLastCalledWith({ mobileNumber: '070-123 45 67' });
    expect(await screen.findByText(/om 30 sekunder/)).toBeInTheDocument();
  });
});

describe('guards', () => {
  it('sends a visitor on a protected page to the login page with returnTo', async () => {
    for (const path of ['/greetie', '/greetie/new?draft=1', '/greetie/details/abc', '/voucher', '/redeem/abc?x=1', '/my/profile']) {
      const r = renderApp(path);
      await waitFor(() => expect(r.router.state.location.pathname).toBe('/auth/jwt/login'));
      expect(new URLSearchParams(r.router.state.location.search).get('returnTo'), path).toBe(path);
      r.unmount();
    }
  });

  it('lets a signed-in user through to a protected page', async () => {
    const r = renderApp('/greetie', { fakes: { restoreSession: vi.fn(async () => testSession()) } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mina greeties' })).toBeInTheDocument();
    expect(r.router.state.location.pathname).toBe('/greetie');
  });

  it.each([
    ['/auth/jwt/login', '/'],
    // Compose names its first step in the address (decision 126).
    ['/auth/jwt/login?returnTo=%2Fgreetie%2Fnew', '/greetie/new/media'],
    ['/auth/jwt/login?returnTo=%2F%2Fevil.com', '/'],
    ['/auth/jwt/login?returnTo=https%3A%2F%2Fevil.com', '/'],
    ['/auth/jwt/login?returnTo=%2F%5Cevil.com', '/'],
    ['/auth/jwt/login?returnTo=javascript%3Aalert(1)', '/'],
  ])('sends a signed-in user on %s to %s', async (path, expected) => {
    const r = renderApp(path, { fakes: { restoreSession: vi.fn(async () => testSession()) } });
    await waitFor(() => expect(r.router.state.location.pathname).toBe(expected));
  });

  it('signs out from the account menu: revokes, and the header switches to the visitor’s', async () => {
    const r = renderApp('/', { fakes: { restoreSession: vi.fn(async () => testSession()) } });
    await r.user.click(await screen.findByRole('button', { name: 'Konto' }));
    await r.user.click(await screen.findByRole('menuitem', { name: 'Logga ut' }));
    await waitFor(() => expect(r.fakes.revokeSession).toHaveBeenCalledWith({ refreshToken: 'r' }));
    expect((await screen.findAllByRole('link', { name: 'Logga in' })).length).toBeGreaterThan(0);
    expect(r.router.state.location.pathname).toBe('/');
  });

  it('signs out from a protected page and lands on the start page, not the login page', async () => {
    const r = renderApp('/voucher', { fakes: { restoreSession: vi.fn(async () => testSession()) } });
    await r.user.click(await screen.findByRole('button', { name: 'Konto' }));
    await r.user.click(await screen.findByRole('menuitem', { name: 'Logga ut' }));
    await waitFor(() => expect(r.fakes.revokeSession).toHaveBeenCalled());
    await waitFor(() => expect(r.router.state.location.pathname).toBe('/'));
  });
});
