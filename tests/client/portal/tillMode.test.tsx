import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { installFakeCamera } from '../../fixtures/camera.ts';
import { redeemedPart, undone, value } from '../../fixtures/vouchers.ts';

/**
 * Till mode (/portal/{merchantId}/kassa) on a phone: the token typed, and the camera path with the
 * browser's camera and BarcodeDetector faked at their documented APIs. The server is fetch,
 * stubbed at the edge, answering as the contract says.
 */
const MERCHANT = value.merchant.id;
const TOKEN = 'ABCD2345EF';
const taken = redeemedPart(value, 14900);
const givenBack = undone(taken, taken.redemptions[0]!.id);

type Call = { path: string; body: unknown; headers: Headers };
let calls: Call[] = [];
let answers: Record<string, () => Response> = {};
let camera: ReturnType<typeof installFakeCamera>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const text = (el: Element | null) => (el?.textContent ?? '').replace(/\s+/gu, ' ').trim();

beforeEach(() => {
  calls = [];
  answers = {
    scan: () => json(200, value),
    redeem: () => json(200, taken),
    undo: () => json(200, givenBack),
  };
  installDomStubs({ viewport: 'mobile' });
  camera = installFakeCamera();
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    // Only till mode's own calls are recorded (the app's frame asks for other things).
    if (path.startsWith('/api/portal/')) calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined, headers: new Headers(init?.headers) });
    const kind = path.split('/').at(-1)!;
    return answers[kind]?.() ?? json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' });
  });
});

afterEach(() => {
  camera.uninstall();
  vi.restoreAllMocks();
});

function open() {
  renderRoute(`/portal/${MERCHANT}/kassa`, { session: signedIn({ id: 'u1' }) });
  return screen.findByRole('heading', { level: 1, name: 'Kassaläge' }, { timeout: 5000 });
}

describe('till mode: the typed token', () => {
  it('finds the voucher by a token typed in lower case with spaces, takes part of a value voucher, says Inlöst, and undoes it', async () => {
    const user = userEvent.setup();
    await open();
    await user.type(screen.getByRole('textbox', { name: 'Koden under QR-koden' }), 'abcd 2345 ef');
    await user.click(screen.getByRole('button', { name: 'Hämta gåvan' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Presentkort Kanelbullen' }, { timeout: 5000 })).toBeInTheDocument();
    expect(calls.map((c) => [c.path, c.body])).toEqual([[`/api/portal/merchants/${MERCHANT}/scan`, { token: TOKEN }]]);
    expect(text(screen.getByTestId('till-announce'))).toBe('Gåvan hittades: Presentkort Kanelbullen, 349 kr att använda.');
    // The amount field has the focus, and says at once what stays on the voucher.
    const amount = screen.getByRole('textbox', { name: 'Belopp att dra' });
    expect(amount).toHaveFocus();
    await user.type(amount, '149');
    expect(text(screen.getByTestId('amount-line'))).toBe('Kvar efter köpet: 200 kr');
    await user.click(screen.getByRole('button', { name: 'Lös in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Inlöst' }, { timeout: 5000 })).toHaveFocus();
    const redeem = calls[1]!;
    expect([redeem.path, redeem.body]).toEqual([`/api/portal/merchants/${MERCHANT}/redeem`, { token: TOKEN, amount: 14900 }]);
    expect(redeem.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(text(screen.getByTestId('redeemed-amounts'))).toBe('149 kr draget · 200 kr kvar');
    expect(text(screen.getByTestId('till-announce'))).toBe('Inlöst: 149 kr draget, 200 kr kvar.');
    // Ångra asks once more, then undoes at the merchant.
    await user.click(screen.getByRole('button', { name: 'Ångra' }));
    await user.click(await screen.findByRole('button', { name: 'Ja, ångra köpet' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ångrat' }, { timeout: 5000 })).toBeInTheDocument();
    expect(calls[2]!.path).toBe(`/api/portal/merchants/${MERCHANT}/redemptions/${taken.redemptions[0]!.id}/undo`);
    expect(text(screen.getByTestId('undone-amounts'))).toBe('149 kr är tillbaka på gåvan · 349 kr kvar');
    // Skanna nästa: an empty till for the next customer.
    await user.click(screen.getByRole('button', { name: 'Skanna nästa' }));
    expect(await screen.findByRole('textbox', { name: 'Koden under QR-koden' })).toHaveValue('');
  });

  it('a token that has gone out says so plainly and puts the staff back in the field', async () => {
    answers.scan = () => json(410, { code: 'TOKEN_EXPIRED', message: 'QR-koden har redan använts eller gått ut.' });
    const user = userEvent.setup();
    await open();
    const field = screen.getByRole('textbox', { name: 'Koden under QR-koden' });
    await user.type(field, TOKEN);
    await user.click(screen.getByRole('button', { name: 'Hämta gåvan' }));
    expect(text(await screen.findByRole('alert', {}, { timeout: 5000 }))).toBe('Koden har gått ut – be kunden visa en ny.');
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('a token that cannot be one is refused on the phone: nothing is sent', async () => {
    const user = userEvent.setup();
    await open();
    await user.type(screen.getByRole('textbox', { name: 'Koden under QR-koden' }), 'abc1');
    await user.click(screen.getByRole('button', { name: 'Hämta gåvan' }));
    expect(text(await screen.findByRole('alert'))).toBe('Koden har 10 tecken: bokstäver A–Z och siffror 2–9.');
    expect(calls).toEqual([]);
  });
});

describe('till mode: the camera', () => {
  it("'Skanna kund' opens the back camera; a QR code with a token looks the voucher up, and the camera is turned off", async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('button', { name: 'Skanna kund' }));
    expect(await screen.findByTestId('scanner-video')).toBeInTheDocument();
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false }));
    camera.show(TOKEN);
    expect(await screen.findByRole('heading', { level: 1, name: 'Presentkort Kanelbullen' }, { timeout: 5000 })).toBeInTheDocument();
    expect(calls.map((c) => c.body)).toEqual([{ token: TOKEN }]);
    expect(camera.stop).toHaveBeenCalled();
  });

  it("another shop's QR code is not taken: the camera keeps looking and says why", async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('button', { name: 'Skanna kund' }));
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalled());
    camera.show('https://example.com/meny');
    expect(text(await screen.findByRole('alert', {}, { timeout: 5000 }))).toBe('Det där är inte en QR-kod från en gåva. Be kunden visa gåvans QR-kod.');
    expect(screen.getByTestId('scanner-video')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('a camera refused goes back to the typed field with a plain explanation', async () => {
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('button', { name: 'Skanna kund' }));
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalled());
    camera.refuse('NotAllowedError');
    expect(text(await screen.findByTestId('camera-problem', {}, { timeout: 5000 }))).toMatch(/^Kameran får inte användas\. Tillåt kameran/);
    expect(screen.queryByTestId('scanner-video')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Koden under QR-koden' })).toBeEnabled();
  });

  it('a phone with no camera (no mediaDevices) says so and keeps the typed field', async () => {
    camera.uninstall();
    const user = userEvent.setup();
    await open();
    await user.click(screen.getByRole('button', { name: 'Skanna kund' }));
    expect(text(await screen.findByTestId('camera-problem', {}, { timeout: 5000 }))).toMatch(/^Vi hittar ingen kamera/);
  });
});
