import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { api, expectPath, giveValueGift, mobileNumberFor, signInOnLoginPage } from './harness/app.ts';

/**
 * The till with a value voucher used in part, and undone (issue 25): a sender gives a 349 kr
 * "Presentkort" (a min/max InStore product) through the API and pays in the sandbox; the
 * recipient signs in, opens the gift's till screen, and the "staff" type 149 on the decimal
 * keypad (the screen says at once that 200 kr stays), then the merchant code from GET
 * /api/sandbox/merchants: "Inlöst" says "149 kr draget · 200 kr kvar". They press 'Ångra', type
 * the code again, and the 149 kr is back: 349 kr on the gift.
 */

connectBrowser();

/** Text as a person reads it: the no-break spaces of "349 kr" read as spaces. */
const plain = (s: string | null) => (s ?? '').replace(/\s+/gu, ' ').trim();

journey('till', async (j) => {
  const { page, baseURL } = j;
  const recipient = mobileNumberFor(j.name, j.viewport);
  const gift = await giveValueGift(baseURL, mobileNumberFor('till-sender', j.viewport).e164, recipient.e164);
  const merchantCode = (await api<Array<{ id: string; merchantCode: string | null }>>(baseURL, '/api/sandbox/merchants')).find((m) => m.id === gift.merchantId)?.merchantCode;
  if (!merchantCode) throw new Error(`no sandbox merchant code for ${gift.merchant}`);

  // Mina gåvor, after signing in: the gift sent to this number (delivery is a job).
  await page.goto('/voucher');
  await expectPath(page, /^\/auth\/jwt\/login\?returnTo=%2Fvoucher/);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/voucher');
  const main = page.getByRole('main');
  await main.getByRole('heading', { level: 1, name: 'Mina gåvor' }).waitFor();
  const card = main.getByRole('link', { name: new RegExp(gift.product) });
  await expect.poll(async () => {
    if ((await card.count()) > 0) return true;
    await page.reload();
    await main.getByRole('heading', { level: 1, name: 'Mina gåvor' }).waitFor();
    return (await card.count()) > 0;
  }, { timeout: 20_000 }).toBe(true);
  await card.first().click();
  await main.getByRole('heading', { level: 1, name: gift.product }).waitFor();
  await main.getByRole('link', { name: 'Lös in i butiken' }).click();
  await expectPath(page, /^\/redeem\/voucher\//);

  // The amount first, on the decimal keypad: what stays shows at once.
  const amount = main.getByRole('textbox', { name: 'Belopp att dra' });
  await amount.waitFor();
  expect(await amount.getAttribute('inputmode')).toBe('decimal');
  const line = main.getByTestId('amount-line');
  expect(plain(await line.textContent())).toBe('Saldo: 349 kr');
  await j.check('the till for a value voucher');
  await amount.fill('149');
  await expect.poll(async () => plain(await line.textContent())).toBe('Kvar efter köpet: 200 kr');
  await j.check('amount typed');

  // Then the merchant code: "Inlöst", with what was taken and what is left.
  await main.getByRole('textbox', { name: 'Handlarkod' }).fill(merchantCode);
  await main.getByRole('button', { name: 'Lös in' }).click();
  await main.getByRole('heading', { level: 1, name: 'Inlöst' }).waitFor();
  expect(plain(await main.getByTestId('redeemed-amounts').textContent())).toBe('149 kr draget · 200 kr kvar');
  await main.getByText(/^Du kan ångra köpet till kl\. \d\d:\d\d\.$/).waitFor();
  await j.check('Inlöst with what is left');

  // Ångra: the code again, and the amount is back.
  await main.getByRole('button', { name: 'Ångra', exact: true }).click();
  const again = main.getByRole('textbox', { name: 'Handlarkod' });
  await again.waitFor();
  await expect.poll(() => again.evaluate((el) => el === document.activeElement)).toBe(true);
  await j.check('Ångra asks for the code');
  await again.fill(merchantCode.toLowerCase());
  await main.getByRole('button', { name: 'Ångra köpet' }).click();
  await main.getByRole('heading', { level: 1, name: 'Ångrat' }).waitFor();
  expect(plain(await main.getByTestId('undone-amounts').textContent())).toBe('149 kr är tillbaka på gåvan · 349 kr kvar');
  await j.check('undone, the balance back');

  // The till starts again with the balance as the server answered it.
  await main.getByRole('button', { name: 'Lös in på nytt' }).click();
  await expect.poll(async () => plain(await main.getByTestId('amount-line').textContent())).toBe('Saldo: 349 kr');
});
