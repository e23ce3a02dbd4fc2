import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { codeFromLoginPage, api, call, deliveredVoucher, expectPath, giveValueGift, header, mobileNumberFor, signInByApi, signInOnLoginPage } from './harness/app.ts';

/**
 * Till mode in the merchant portal (issue 26): a sender gives a 349 kr value gift (an InStore
 * product with a range) through the API and pays in the sandbox. The recipient signs in on the
 * phone, opens the gift and reads the QR code's token printed under it, then signs out. The merchant's demo
 * owner (GET /sandbox/merchants `ownerNumber`) signs in through the sandbox SMS on the login page,
 * opens /portal/{id}/kassa, types the token under the QR code (in lower case, with a space), takes
 * 149 kr: "Inlöst" says "149 kr draget · 200 kr kvar". 'Ångra', once more 'Ja, ångra köpet', and
 * the 149 kr is back. axe runs at each step (j.check).
 */

connectBrowser();

/** The recipient's voucher of that greetie once delivered, the recipient named (the first sign-in on the phone would ask). */
async function voucherFor(baseURL: string, recipientE164: string, greetieId: string): Promise<string> {
  const token = await signInByApi(baseURL, recipientE164);
  await call(baseURL, token, 'POST', '/api/mobileuser', { name: 'Bo' });
  return deliveredVoucher(baseURL, token, greetieId);
}

const plain = (s: string | null) => (s ?? '').replace(/\s+/gu, ' ').trim();

journey('portal-till', async (j) => {
  const { page, baseURL } = j;
  const recipient = mobileNumberFor(j.name, j.viewport);
  const gift = await giveValueGift(baseURL, mobileNumberFor('portal-till-sender', j.viewport).e164, recipient.e164);
  const owner = (await api<Array<{ id: string; ownerNumber: string | null }>>(baseURL, '/api/sandbox/merchants')).find((m) => m.id === gift.merchantId)?.ownerNumber;
  if (!owner) throw new Error(`no demo owner for ${gift.merchant}`);
  const voucherId = await voucherFor(baseURL, recipient.e164, gift.greetieId);

  // The customer opens the gift on the phone: a QR code for the till, its token printed under it.
  await page.goto(`/voucher/${voucherId}`);
  await expectPath(page, /^\/auth\/jwt\/login\?returnTo=/);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, `/voucher/${voucherId}`);
  await page.getByTestId('voucher-qr').waitFor();
  const printed = plain(await page.getByTestId('voucher-qr-token').textContent());
  expect(printed).toMatch(/^[A-Z2-9]{5} [A-Z2-9]{5}$/u);
  const token = printed.replace(' ', '');
  await j.check('the gift shows its QR code');
  await header(page).getByRole('button', { name: 'Konto' }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: 'Logga ut' }).click();
  // Signed out on a page that needs a sign-in: the start page or the login page.
  await expectPath(page, /^\/(auth\/jwt\/login(\?.*)?)?$/u);

  // The owner opens till mode; signed out, the login page comes first (the sandbox SMS).
  await page.goto(`/portal/${gift.merchantId}/kassa`);
  await expectPath(page, /^\/auth\/jwt\/login\?returnTo=/);
  await codeFromLoginPage(j, page, owner);
  await page.getByRole('button', { name: 'Logga in', exact: true }).click();
  await expectPath(page, `/portal/${gift.merchantId}/kassa`);

  const main = page.getByRole('main');
  await main.getByRole('heading', { level: 1, name: 'Kassaläge' }).waitFor();
  await main.getByRole('button', { name: 'Skanna kund' }).waitFor();
  await j.check('till mode');

  // The token as printed under the QR code, typed in lower case with a space.
  await main.getByRole('textbox', { name: 'Koden under QR-koden' }).fill(`${token.slice(0, 5).toLowerCase()} ${token.slice(5).toLowerCase()}`);
  await main.getByRole('button', { name: 'Hämta gåvan' }).click();
  await main.getByRole('heading', { level: 1, name: gift.product }).waitFor();
  const line = main.getByTestId('amount-line');
  expect(plain(await line.textContent())).toBe('Saldo: 349 kr');
  await j.check('the voucher found');

  await main.getByRole('textbox', { name: 'Belopp att dra' }).fill('149');
  await expect.poll(async () => plain(await line.textContent())).toBe('Kvar efter köpet: 200 kr');
  await main.getByRole('button', { name: 'Lös in' }).click();
  await main.getByRole('heading', { level: 1, name: 'Inlöst' }).waitFor();
  expect(plain(await main.getByTestId('redeemed-amounts').textContent())).toBe('149 kr draget · 200 kr kvar');
  await j.check('Inlöst with what is left');

  await main.getByRole('button', { name: 'Ångra', exact: true }).click();
  await main.getByRole('button', { name: 'Ja, ångra köpet' }).click();
  await main.getByRole('heading', { level: 1, name: 'Ångrat' }).waitFor();
  expect(plain(await main.getByTestId('undone-amounts').textContent())).toBe('149 kr är tillbaka på gåvan · 349 kr kvar');
  await j.check('undone, the balance back');

  await main.getByRole('button', { name: 'Skanna nästa' }).click();
  await expect.poll(async () => main.getByRole('textbox', { name: 'Koden under QR-koden' }).inputValue()).toBe('');
});
