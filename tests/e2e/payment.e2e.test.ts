import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import path from 'node:path';
import sharp from 'sharp';
import { expect, inject } from 'vitest';
import type { Greetie } from '../../contract/greetie.ts';
import type { Product } from '../../contract/merchant.ts';
import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, answerInSandbox, expectPath, fixedPriceProduct, mobileNumberFor, signInOnLoginPage, tickWithdrawalConsent } from './harness/app.ts';

/**
 * Paying for a greetie with Swish in the sandbox on a desktop (each page also seen at the phone's
 * size; a phone's 'Öppna Swish' is walked in gift.e2e): a draft with a gift (made through the API
 * as the compose journey's steps would leave it: a recipient, a message, a fixed-price gift) opened
 * at its review; 'Betala med Swish': the QR code. The payer answers from /sandbox in a second tab:
 * first 'Neka' (the page says the payer declined, 'Försök igen'), then, through the Swish-number
 * field, 'Godkänn': the receipt. Then the greetie's details page in a new tab, as the Swish app
 * returns the payer there: the session survives and the receipt shows. Delivered at once, the
 * recipient's SMS with the link is in the sandbox outbox.
 */

connectBrowser();

/** A draft at its review, made with the signed-in person's own token (as the compose steps would save it), the sender named. */
async function draftWithGift(page: Page, product: Product, recipient: string): Promise<Greetie> {
  const jpeg = await sharp({ create: { width: 480, height: 600, channels: 3, background: '#f4a6c8' } }).jpeg({ quality: 80 }).toBuffer();
  return page.evaluate(
    async ({ productId, mobileNumber, photo }) => {
      const auth = { authorization: `Bearer ${sessionStorage.getItem('accessToken')}` };
      // A sender needs a name (startpayment is 409 SENDER_NAME_REQUIRED without; compose asks for it).
      const named = await fetch('/api/mobileuser', { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ name: 'Anna' }) });
      if (!named.ok) throw new Error(`mobileuser answered ${named.status}: ${await named.text()}`);
      const res = await fetch('/api/greetie/createv2', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ recipient: { mobileNumber, name: 'Mormor' }, message: 'Grattis på födelsedagen!', gifts: [{ productId }] }),
      });
      if (!res.ok) throw new Error(`createv2 answered ${res.status}: ${await res.text()}`);
      const draft = (await res.json()) as Greetie;
      const form = new FormData();
      form.append('file', new Blob([Uint8Array.from(atob(photo), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }), 'foto.jpg');
      const media = await fetch(`/api/greetie/${draft.id}/media`, { method: 'POST', headers: auth, body: form });
      if (!media.ok) throw new Error(`media answered ${media.status}: ${await media.text()}`);
      return (await media.json()) as Greetie;
    },
    { productId: product.id, mobileNumber: recipient, photo: jpeg.toString('base64') },
  );
}

journey('payment', async (j) => {
  const { page } = j;
  await page.goto('/greetie/new');
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j, { checkpoints: false });
  // Back from signing in, the page names its first step in the address.
  await expectPath(page, /^\/greetie\/new(\/media)?$/);

  const { product } = await fixedPriceProduct(j.baseURL);
  const recipient = mobileNumberFor('payment-recipient', j.viewport);
  const draft = await draftWithGift(page, product, recipient.e164);

  // The review: the gift, the total, the terms; 'Betala med Swish'.
  await page.goto(`/greetie/new?draft=${draft.id}`);
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: 'Granska din greetie' }).waitFor();
  await main.getByRole('link', { name: 'köpvillkor', exact: true }).waitFor();
  const pay = main.getByRole('button', { name: 'Betala med Swish' });
  await expect.poll(() => pay.isEnabled()).toBe(true);
  await j.check('payment: review');
  await tickWithdrawalConsent(main);
  await pay.click();

  // Awaiting the payer: the QR code and the number field (a phone gets Swish's app button: gift.e2e).
  await main.getByRole('heading', { level: 2, name: 'Betala med Swish' }).waitFor();
  await main.getByText(/^Att betala: /).waitFor();
  const qr = main.getByRole('img', { name: 'QR-kod för betalningen i Swish' });
  await qr.waitFor();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await main.getByLabel('Ditt Swish-nummer').waitFor();
  await j.check('payment: awaiting the payer');

  // The payer declines in Swish (the sandbox, in a second tab).
  const sandbox = await j.context.newPage();
  await sandbox.goto('/sandbox');
  await answerInSandbox(sandbox, draft.id, 'Neka', { screenshot: path.join(inject('resultsDir'), `payment-${j.viewport}-sandbox-pending.png`) });
  await page.bringToFront();
  const declined = main.getByRole('alert').filter({ hasText: 'Betalningen nekades' });
  await declined.waitFor({ timeout: 15_000 });
  await j.check('payment: declined');

  // Try again, this time with the payer's Swish number (the request pops up there).
  await declined.getByRole('button', { name: 'Försök igen' }).click();
  const payer = mobileNumberFor('payment-payer', j.viewport);
  await main.getByLabel('Ditt Swish-nummer').fill(payer.typed);
  await main.getByRole('button', { name: 'Skicka till min Swish' }).click();
  await main.getByText('Väntar på svar från Swish…').waitFor();
  await main.getByText(`Öppna Swish på telefonen med nummer ${payer.e164} och godkänn betalningen där.`).waitFor();
  await j.check('payment: waiting for the payer’s phone');
  await answerInSandbox(sandbox, draft.id, 'Godkänn', { payer: payer.e164 });
  await page.bringToFront();

  // Paid: the receipt.
  await main.getByRole('heading', { name: 'Tack! Betalningen är klar' }).waitFor({ timeout: 15_000 });
  // The page is no longer about making it.
  await main.getByRole('heading', { level: 1, name: 'Din greetie' }).waitFor();
  const receipt = main.getByRole('article', { name: 'Kvitto' });
  await receipt.getByText(product.name).waitFor();
  await receipt.getByText('Totalt').waitFor();
  await receipt.getByRole('link', { name: 'Köpvillkor', exact: true }).waitFor();
  await receipt.getByRole('link', { name: 'Integritetspolicy' }).waitFor();
  // The payment's order number, for people; 'Spara kvitto' downloads the receipt as a PDF.
  await receipt.getByText(/^G-\d{6,}$/).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), receipt.getByRole('button', { name: 'Spara kvitto' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^greetie-kvitto-G-\d{6,}\.pdf$/);
  // The browser runs elsewhere (a remote connection): the file is saved here to be read.
  const saved = path.join(tmpdir(), `${download.suggestedFilename()}-${j.viewport}-${process.pid}`);
  await download.saveAs(saved);
  expect((await readFile(saved)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await rm(saved, { force: true });
  await j.check('payment: receipt');

  // Swish returns the payer to the details page, often in a new tab: the session and the receipt are there.
  const returned = await j.context.newPage();
  await returned.goto(`/greetie/details/${draft.id}`);
  await returned.getByRole('heading', { name: 'Tack! Betalningen är klar' }).waitFor({ timeout: 15_000 });
  await returned.getByRole('article', { name: 'Kvitto' }).getByText(product.name).waitFor();
  await returned.getByText(/^(Schemalagd|Levererad|Sedd)$/).first().waitFor();
  await returned.close();

  // Delivered at once: the recipient's SMS with the link is in the sandbox outbox.
  await sandbox.bringToFront();
  await sandbox.reload();
  const sms = sandbox
    .getByRole('list', { name: 'Sms-utkorg' })
    .getByRole('listitem')
    .filter({ hasText: recipient.e164 })
    .filter({ hasText: 'Anna har skickat en greetie med en present till dig.' });
  await sms.waitFor({ timeout: 15_000 });
  expect(await sms.textContent()).toMatch(/\/greetie\/view\/[A-Za-z0-9_-]{22,}/);
  await sandbox.screenshot({ path: path.join(inject('resultsDir'), `payment-${j.viewport}-sandbox-sms.png`), fullPage: true });
  await sandbox.close();
}, { walkAtDesktop: true });
