import path from 'node:path';
import sharp from 'sharp';
import { expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { Greetie } from '../../contract/greetie.ts';
import { Journey, connectBrowser, currentBrowser } from './harness/journey.ts';
import { LOGIN_PATH, api, expectPath, fixedPriceProduct, greetieLinkFromOutbox, mobileNumberFor, readCodeFromOutbox, signInOnLoginPage, tickWithdrawalConsent } from './harness/app.ts';

/**
 * The whole gift, with two people, each in a browser context of their own, so two
 * separate sessions on the one server:
 * - the sender, on a desktop (1280×800), signs in, makes a greetie with a photo, a text and an
 *   InStore gift (the draft saved through the API as the compose steps would leave it, the way
 *   payment.e2e does; compose.e2e walks those steps), opens its review, 'Betala med Swish', and
 *   answers 'Godkänn' in /sandbox in a second tab: the receipt;
 * - the recipient, on a phone (390×844), opens the link from the sandbox SMS outbox, watches the
 *   greetie as a visitor (the gift by name, no phone number, no code), 'Logga in för att ta emot'
 *   with the number it was sent to, is back on the greetie with the gift theirs, opens it in Mina
 *   gåvor and redeems it at the till with the merchant code from the sandbox ('Handlarkod',
 *   'Lös in' → 'Inlöst' with the live time); back in Mina gåvor it is greyed as redeemed;
 * - the sender's list (/greetie) then says "Sedd".
 * Screenshots: test-results/gift-sender-desktop-*.png and gift-phone-*.png.
 */

connectBrowser();

const RECIPIENT = mobileNumberFor('gift', 'phone');

/** The sender's name, and a draft with a photo, a text over it and the gift, saved with the page's own token. */
async function draftWithPhoto(page: Page, productId: string, mobileNumber: string): Promise<Greetie> {
  const jpeg = await sharp({ create: { width: 800, height: 1000, channels: 3, background: '#f4a6c8' } }).jpeg({ quality: 80 }).toBuffer();
  return page.evaluate(
    async ({ productId, mobileNumber, photo }) => {
      const auth = { authorization: `Bearer ${sessionStorage.getItem('accessToken')}` };
      const json = { 'content-type': 'application/json', ...auth };
      const named = await fetch('/api/mobileuser', { method: 'POST', headers: json, body: JSON.stringify({ name: 'Anna' }) });
      if (!named.ok) throw new Error(`mobileuser answered ${named.status}: ${await named.text()}`);
      const res = await fetch('/api/greetie/createv2', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          recipient: { mobileNumber, name: 'Mormor' },
          message: 'Grattis på födelsedagen! Fikat bjuder jag på.',
          content: [{ type: 'text', value: 'Hurra!', x: 0.5, y: 0.2, scale: 1.4, rotation: -4 }],
          gifts: [{ productId }],
        }),
      });
      if (!res.ok) throw new Error(`createv2 answered ${res.status}: ${await res.text()}`);
      const draft = (await res.json()) as Greetie;
      const form = new FormData();
      form.append('file', new Blob([Uint8Array.from(atob(photo), (c) => c.charCodeAt(0))], { type: 'image/jpeg' }), 'foto.jpg');
      const media = await fetch(`/api/greetie/${draft.id}/media`, { method: 'POST', headers: auth, body: form });
      if (!media.ok) throw new Error(`media answered ${media.status}: ${await media.text()}`);
      return (await media.json()) as Greetie;
    },
    { productId, mobileNumber, photo: jpeg.toString('base64') },
  );
}

// Two people in one test (the harness's journey() runs one person); 18–28 s here,
// so its own budget is the ~60 s the issue allows, above the config's 45 s default.
test('gift: the sender pays on a desktop, the recipient watches, signs in and redeems on a phone, the sender sees "Sedd"', async () => {
  const t0 = Date.now();
  const lap = (what: string) => console.log(`gift: ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const sender = await Journey.open(currentBrowser(), 'gift-sender', 'desktop', inject('baseURL'));
  const recipient = await Journey.open(currentBrowser(), 'gift', 'phone', inject('baseURL'));
  let failed = true;
  try {
    const { baseURL } = sender;
    const { product, merchant } = await fixedPriceProduct(baseURL, 'InStore');
    const gift = { productId: product.id, product: product.name, merchantId: merchant.id, merchant: merchant.name };

    // ---- The sender, on a desktop: sign in, the draft, its review, Swish in the sandbox.
    const s = sender.page;
    await s.goto('/greetie/new');
    await expectPath(s, new RegExp(`^${LOGIN_PATH}`));
    await signInOnLoginPage(sender, { checkpoints: false });
    // Back from signing in, the page names its first step in the address.
    await expectPath(s, /^\/greetie\/new(\/media)?$/);
    const draft = await draftWithPhoto(s, gift.productId, RECIPIENT.e164);
    await s.goto(`/greetie/new?draft=${draft.id}`);
    const sMain = s.getByRole('main');
    await sMain.getByRole('heading', { name: 'Granska din greetie' }).waitFor();
    await sMain.getByText(gift.product).first().waitFor();
    const pay = sMain.getByRole('button', { name: 'Betala med Swish' });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await sender.check('review');
    await tickWithdrawalConsent(sMain);
    await pay.click();
    const qr = sMain.getByRole('img', { name: 'QR-kod för betalningen i Swish' });
    await qr.waitFor();
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await sender.check('awaiting Swish');

    // The payer says yes in Swish: the sandbox, in a second tab.
    const sandbox = await sender.context.newPage();
    await sandbox.goto('/sandbox');
    const payments = sandbox.getByRole('region', { name: 'Betalningar' });
    const pending = payments.getByRole('listitem').filter({ hasText: draft.id.slice(0, 8) });
    await pending.waitFor({ timeout: 15_000 });
    await sandbox.screenshot({ path: path.join(inject('resultsDir'), 'gift-sender-desktop-sandbox-payment.png'), fullPage: true });
    await pending.getByRole('button', { name: 'Godkänn' }).click();
    await payments.getByRole('status').filter({ hasText: 'Godkänn' }).waitFor();
    await sandbox.close();
    await s.bringToFront();
    await sMain.getByRole('heading', { name: 'Tack! Betalningen är klar' }).waitFor({ timeout: 15_000 });
    await sMain.getByRole('article', { name: 'Kvitto' }).getByText(gift.product).waitFor();
    await sender.check('receipt');
    lap('paid');

    // ---- The recipient, on a phone: the link from the SMS, as a visitor.
    const r = recipient.page;
    const link = await greetieLinkFromOutbox(baseURL, RECIPIENT.e164);
    expect(link).toBe(`/greetie/view/${draft.refId}`);
    await r.goto(link);
    const rMain = r.getByRole('main');
    await rMain.getByRole('heading', { level: 1, name: 'En greetie från Anna' }).waitFor();
    const frame = rMain.getByRole('img', { name: 'Bilden i greetien' });
    await frame.waitFor();
    await expect.poll(() => frame.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await rMain.getByText('Grattis på födelsedagen! Fikat bjuder jag på.').waitFor();
    await rMain.getByRole('img', { name: 'Över bilden: Hurra!' }).waitFor();
    await rMain.getByText(gift.product, { exact: true }).waitFor();
    const receive = rMain.getByRole('link', { name: 'Logga in för att ta emot' });
    await receive.waitFor();
    // No phone number and no voucher code in what a visitor can read.
    const merchantCode = (await api<Array<{ id: string; merchantCode: string }>>(baseURL, '/api/sandbox/merchants')).find((m) => m.id === gift.merchantId)?.merchantCode;
    if (!merchantCode) throw new Error(`no sandbox merchant code for ${gift.merchant}`);
    const visible = await r.evaluate(() => document.body.innerText);
    expect(visible).not.toContain('+46');
    expect(visible).not.toContain(RECIPIENT.e164.slice(5));
    expect(visible).not.toMatch(/07\d[\s-]?\d{3}/);
    expect(visible.toLowerCase()).not.toContain(merchantCode.toLowerCase());
    await recipient.check('the link opened by a visitor');
    lap('viewed');

    // 'Logga in för att ta emot': the number it was sent to, the code from the SMS, back to the greetie.
    await receive.click();
    await expectPath(r, `${LOGIN_PATH}?returnTo=${encodeURIComponent(link)}`);
    // (By hand rather than signInOnLoginPage: that one waits for the header's 'Konto', and the
    // greetie view it returns to has the minimal layout, only the corner menu.)
    await r.getByLabel('Mobilnummer').fill(RECIPIENT.typed);
    await recipient.check('login: the number');
    const since = Date.now();
    await r.getByRole('button', { name: 'Skicka kod' }).click();
    const codeField = r.getByLabel('Kod', { exact: true });
    await codeField.waitFor();
    await codeField.fill(await readCodeFromOutbox(baseURL, RECIPIENT.e164, since));
    await recipient.check('login: the code');
    await r.getByRole('button', { name: 'Logga in', exact: true }).click();
    await expectPath(r, link);
    expect(await r.evaluate(() => sessionStorage.getItem('accessToken'))).toBeTruthy();
    await rMain.getByRole('heading', { level: 2, name: 'Din gåva' }).waitFor();
    await rMain.getByRole('link', { name: 'Lös in' }).waitFor();
    await recipient.check('back on the greetie, signed in');

    // The gift in Mina gåvor, then the till.
    await rMain.getByRole('link', { name: 'Visa gåvan' }).click();
    await expectPath(r, /^\/voucher\/[0-9a-f-]{36}$/);
    await rMain.getByRole('heading', { level: 1, name: gift.product }).waitFor();
    await recipient.check('the gift in Mina gåvor');
    await rMain.getByRole('link', { name: 'Lös in i butiken' }).click();
    await expectPath(r, /^\/redeem\/voucher\//);
    const field = rMain.getByRole('textbox', { name: 'Handlarkod' });
    await field.waitFor();
    await recipient.check('the till');
    await field.fill(merchantCode);
    await rMain.getByRole('button', { name: 'Lös in' }).click();
    await rMain.getByRole('heading', { level: 1, name: 'Inlöst' }).waitFor();
    const clock = rMain.getByTestId('live-clock');
    const first = await clock.textContent();
    expect(first).toMatch(/^\d\d:\d\d:\d\d$/);
    await expect.poll(() => clock.textContent(), { timeout: 3_000 }).not.toBe(first);
    await recipient.check('Inlöst');
    await rMain.getByRole('link', { name: 'Till Mina gåvor' }).click();
    await expectPath(r, '/voucher');
    await rMain
      .getByRole('region', { name: /Använda och utgångna/ })
      .getByRole('link', { name: new RegExp(gift.product) })
      .getByText(/^Inlöst \d+ \w+ 20\d\d$/)
      .waitFor();
    await recipient.check('redeemed in Mina gåvor');
    lap('redeemed');

    // ---- The sender's list: "Sedd".
    await s.goto('/greetie');
    await sMain.getByRole('heading', { level: 1, name: 'Mina greeties' }).waitFor();
    const row = sMain.getByRole('link', { name: /Mormor/ });
    await row.getByText('Sedd', { exact: true }).waitFor();
    expect(await row.getAttribute('href')).toBe(`/greetie/details/${draft.id}`);
    await sender.check('the list says Sedd');
    lap('done');
    sender.assertClean('at the end');
    recipient.assertClean('at the end');
    failed = false;
  } finally {
    await recipient.close(failed);
    await sender.close(failed);
  }
}, 60_000);
