import { expect } from 'vitest';
import { journey, connectBrowser, type Journey } from './harness/journey.ts';
import { api, expectPath, mobileNumberFor, signInOnLoginPage, call, signInByApi } from './harness/app.ts';

/**
 * Mina gåvor and the till: a gift made through the API (a sender signs in, makes a
 * greetie with an InStore gift to this journey's number, pays in the sandbox); the recipient signs
 * in on the phone-sized window, finds it in Mina gåvor, opens the till screen, and the "staff" type
 * a wrong merchant code, then the right one from GET /api/sandbox/merchants: a large "Inlöst" with
 * the time now, ticking. Back in Mina gåvor the gift is greyed as redeemed, without a reload.
 */

connectBrowser();

/** A paid greetie with one fixed-price InStore gift to `recipient`: the gift's product and merchant. */
async function giveGift(baseURL: string, senderE164: string, recipientE164: string) {
  const token = await signInByApi(baseURL, senderE164);
  await call(baseURL, token, 'POST', '/api/mobileuser', { name: 'Anna' });
  const merchants = await api<Array<{ id: string; name: string }>>(baseURL, '/api/merchant');
  for (const m of merchants) {
    const products = await api<Array<{ id: string; name: string; source: string; price?: number }>>(baseURL, `/api/merchant/${m.id}/products`);
    const p = products.find((x) => x.source === 'InStore' && typeof x.price === 'number');
    if (!p) continue;
    const draft = await call<{ id: string }>(baseURL, token, 'POST', '/api/greetie/createv2', {
      recipient: { mobileNumber: recipientE164, name: 'Bo' },
      message: 'En fika på mig!',
      gifts: [{ productId: p.id }],
    });
    const payment = await call<{ id: string }>(baseURL, token, 'POST', `/api/greetie/${draft.id}/startpayment`, { withdrawalConsent: true });
    await call(baseURL, null, 'POST', `/api/sandbox/payments/${payment.id}`, { outcome: 'paid' });
    return { product: p.name, merchantId: m.id, merchant: m.name };
  }
  throw new Error('the demo catalogue has no fixed-price InStore product');
}

/**
 * The browser reports a refused call as a console error: the one the journey caused on purpose is
 * taken off the problem list (and must be there), anything else still fails the journey.
 */
function expectRefused(j: Journey, status: number, path: string): void {
  const i = j.problems.findIndex((p) => p.includes(`status of ${status}`) && p.includes(path));
  expect(i, `the browser saw the ${status} from ${path}`).toBeGreaterThanOrEqual(0);
  j.problems.splice(i, 1);
}

journey('redeem', async (j) => {
  const { page, baseURL } = j;
  const recipient = mobileNumberFor(j.name, j.viewport);
  const gift = await giveGift(baseURL, mobileNumberFor('redeem-sender', j.viewport).e164, recipient.e164);
  const merchantCode = (await api<Array<{ id: string; merchantCode: string }>>(baseURL, '/api/sandbox/merchants')).find((m) => m.id === gift.merchantId)?.merchantCode;
  if (!merchantCode) throw new Error(`no sandbox merchant code for ${gift.merchant}`);

  // Mina gåvor asks the visitor to sign in, then shows the gift sent to that number.
  await page.goto('/voucher');
  await expectPath(page, /^\/auth\/jwt\/login\?returnTo=%2Fvoucher/);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/voucher');
  const main = page.getByRole('main');
  await main.getByRole('heading', { level: 1, name: 'Mina gåvor' }).waitFor();
  const active = main.getByRole('region', { name: /Att använda/ });
  const card = active.getByRole('link', { name: new RegExp(gift.product) });
  // Delivery is a job: the gift is the recipient's once the greetie is delivered.
  await expect.poll(async () => {
    if ((await card.count()) > 0) return true;
    await page.reload();
    await main.getByRole('heading', { level: 1, name: 'Mina gåvor' }).waitFor();
    return (await card.count()) > 0;
  }, { timeout: 20_000 }).toBe(true);
  await card.getByText(/^Giltig t\.o\.m\. \d+ \w+ 20\d\d$/).waitFor();
  await j.check('Mina gåvor');

  // The gift's page, then the till screen.
  await card.click();
  await main.getByRole('heading', { level: 1, name: gift.product }).waitFor();
  await j.check('the gift');
  await main.getByRole('link', { name: 'Lös in i butiken' }).click();
  await expectPath(page, /^\/redeem\/voucher\//);
  const field = main.getByRole('textbox', { name: 'Handlarkod' });
  await field.waitFor();
  await j.check('the till');

  // A wrong code: said, and the staff are back in the field.
  await field.fill('FEL123');
  await main.getByRole('button', { name: 'Lös in' }).click();
  await main.getByRole('alert').getByText('Fel handlarkod. Kontrollera koden och försök igen.').waitFor();
  await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
  expectRefused(j, 400, '/api/voucher/redeem');
  await j.check('wrong code');

  // The right code: "Inlöst", large, with the time now, ticking.
  await field.fill(merchantCode.toLowerCase());
  await main.getByRole('button', { name: 'Lös in' }).click();
  await main.getByRole('heading', { level: 1, name: 'Inlöst' }).waitFor();
  const clock = main.getByTestId('live-clock');
  const first = await clock.textContent();
  expect(first).toMatch(/^\d\d:\d\d:\d\d$/);
  await expect.poll(() => clock.textContent(), { timeout: 3_000 }).not.toBe(first);
  await j.check('Inlöst');

  // Back in Mina gåvor: greyed as redeemed, at once.
  await main.getByRole('link', { name: 'Till Mina gåvor' }).click();
  await expectPath(page, '/voucher');
  const spent = main.getByRole('region', { name: /Använda och utgångna/ });
  await spent.getByRole('link', { name: new RegExp(gift.product) }).getByText(/^Inlöst \d+ \w+ 20\d\d$/).waitFor();
  await j.check('redeemed in Mina gåvor');
});
