import sharp from 'sharp';
import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, expectPath, mobileNumberFor, signInOnLoginPage, tickWithdrawalConsent } from './harness/app.ts';

/**
 * Making a greetie on a phone (and a desktop): sign in, upload a photo, add a text and an emoji,
 * drag one, go back and forward with the browser (each step has its address), pick a gift, reload
 * half-way and continue, enter the recipient, review, and reach the payment, started with
 * 'Betala med Swish' (tests/e2e/payment.e2e.test.ts pays).
 */

connectBrowser();

/** A small real JPEG, made here (the server checks the bytes). */
const photo = () => sharp({ create: { width: 480, height: 600, channels: 3, background: '#7fb3d5' } }).jpeg({ quality: 80 }).toBuffer();

journey('compose', async (j) => {
  const { page } = j;
  await page.goto('/greetie/new');
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, /^\/greetie\/new(\/media)?$/);

  // 1. Media: a photo from the phone, uploaded with its progress; the step and the draft's id are in the address.
  const main = page.getByRole('main');
  await main.getByRole('heading', { name: 'Välj en bild eller video' }).waitFor();
  await j.check('compose: media, empty');
  await main.getByLabel('Välj från telefonen').setInputFiles({ name: 'foto.jpg', mimeType: 'image/jpeg', buffer: await photo() });
  await main.getByRole('img', { name: 'Din bild' }).waitFor();
  await expectPath(page, /^\/greetie\/new\/media\?draft=[0-9a-f-]{36}$/);
  const draftQuery = new URL(page.url()).search;
  const next = main.getByRole('button', { name: 'Nästa' });
  await expect.poll(() => next.isEnabled()).toBe(true);
  await j.check('compose: media, uploaded');

  // 2. Content: a text and an emoji; the emoji is dragged.
  await next.click();
  await main.getByRole('heading', { name: 'Klä din greetie' }).waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Klä din greetie');
  // Once the content is saved, its flattened image goes up (the thumbnail and link preview).
  const overlay = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/mediaoverlay'), { timeout: 20_000 });
  await main.getByRole('group', { name: 'Lägg till' }).getByRole('button', { name: 'Text' }).click();
  const textPanel = main.getByRole('region', { name: 'Ny text' });
  await textPanel.getByRole('textbox').fill('Grattis!');
  await textPanel.getByRole('button', { name: 'Lägg till text' }).click();
  const text = main.getByRole('button', { name: /Text: Grattis!/ });
  await text.waitFor();
  await main.getByRole('group', { name: 'Lägg till' }).getByRole('button', { name: 'Emoji' }).click();
  await main.locator('button[class*="emojiTile"], ul button[title]').first().click();
  // The emoji lands on top (in the middle, like the text): drag it off the text.
  const emoji = main.getByRole('button', { name: /^Emoji: / }).first();
  await emoji.waitFor();

  const before = await emoji.boundingBox();
  if (!before) throw new Error('the emoji has no box');
  const from = { x: before.x + before.width / 2, y: before.y + before.height / 2 };
  if (j.viewport === 'phone') {
    // A finger: real touch events through the DevTools protocol (the mouse is not a finger).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
    for (let i = 1; i <= 8; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + i * 5, y: from.y + i * 8 }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  } else {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 64, { steps: 8 });
    await page.mouse.up();
  }
  const after = await emoji.boundingBox();
  expect(after && Math.round(after.y - before.y)).toBeGreaterThan(30);
  await main.getByRole('status').filter({ hasText: 'Sparat' }).waitFor();
  expect((await overlay).status()).toBe(200);
  await j.check('compose: content with a text and an emoji');

  // 3. Gifts: a product of the first merchant; the running total in kr.
  await next.click();
  await main.getByRole('heading', { name: 'Lägg till presenter' }).waitFor();
  await expectPath(page, `/greetie/new/gifts${draftQuery}`);
  // The browser's back is the step before, with the content as it was saved; forward goes on again.
  await page.goBack();
  await main.getByRole('heading', { name: 'Klä din greetie' }).waitFor();
  await expectPath(page, `/greetie/new/content${draftQuery}`);
  await main.getByRole('button', { name: /Text: Grattis!/ }).waitFor();
  await page.goForward();
  await main.getByRole('heading', { name: 'Lägg till presenter' }).waitFor();
  await expectPath(page, `/greetie/new/gifts${draftQuery}`);
  await main.getByRole('region', { name: 'Välj handlare' }).getByRole('button', { name: /Café Kanelbullen/ }).click();
  await main.getByRole('heading', { name: 'Café Kanelbullen' }).waitFor();
  await main.getByRole('listitem').filter({ hasText: 'Fika för två' }).getByRole('button', { name: /^Lägg till/ }).click();
  await main.getByRole('list', { name: 'Valda presenter' }).getByRole('listitem').first().waitFor();
  await expect.poll(() => main.getByText(/^Summa: /).textContent()).toMatch(/^Summa: [\d\u00a0]+(,\d\d)?\u00a0kr$/);
  await j.check('compose: gifts with a total');

  // 4. Recipient; a reload on the way stays at the same step (its address) with everything kept.
  await next.click();
  await main.getByRole('heading', { name: 'Vem ska få den?' }).waitFor();
  await expectPath(page, `/greetie/new/recipient${draftQuery}`);
  await main.getByRole('status').filter({ hasText: 'Sparat' }).waitFor();
  await page.reload();
  await main.getByRole('heading', { name: 'Vem ska få den?' }).waitFor();
  await expectPath(page, `/greetie/new/recipient${draftQuery}`);
  const recipient = mobileNumberFor('compose-recipient', j.viewport);
  await main.getByLabel('Mobilnummer').fill(recipient.typed);
  await main.getByLabel('Namn (valfritt)').fill('Mormor');
  await main.getByLabel('Meddelande').fill('Grattis på födelsedagen!');
  // A new account has no name: the step asks for it (the SMS names the sender).
  await main.getByLabel('Ditt namn').fill('Anna Lind');
  await j.check('compose: recipient after a reload');

  // 5. Review: the greetie as the recipient sees it, the gift and the total; then payment.
  await main.getByRole('button', { name: 'Nästa' }).click();
  await main.getByRole('heading', { name: 'Granska din greetie' }).waitFor();
  await main.getByText('Grattis på födelsedagen!').waitFor();
  await main.getByRole('img', { name: /Innehåll: Grattis!/ }).waitFor();
  const toPayment = main.getByRole('button', { name: 'Betala med Swish' });
  await expect.poll(() => toPayment.isEnabled()).toBe(true);
  await j.check('compose: review');
  await tickWithdrawalConsent(main);
  await toPayment.click();
  await main.getByRole('heading', { name: 'Betala med Swish' }).waitFor();
  await j.check('compose: payment');
}, { walkAtBothSizes: true });
