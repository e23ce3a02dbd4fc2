import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, expectPath, expectSignedOut, header, mobileNumberFor, signInOnLoginPage } from './harness/app.ts';

/**
 * My pages: after the first sign-in a person with no name is asked for
 * one below the header; the header then shows it. 'Mina sidor' in the account menu opens the
 * profile (the name, the number the account is tied to, shortcuts), and the settings' marketing
 * consent is saved as soon as the switch is turned, and still there after a reload.
 */

connectBrowser();

journey('my pages', async (j) => {
  const { page } = j;
  await page.goto(LOGIN_PATH);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/');

  // A new account has no name: the prompt asks, without covering anything.
  const prompt = page.getByRole('region', { name: 'Välkommen till Greetie!' });
  await prompt.waitFor();
  await j.check('asked for a name');
  await prompt.getByRole('textbox', { name: 'Vad heter du?' }).fill('  Astrid Lindqvist ');
  await prompt.getByRole('button', { name: 'Klar' }).click();
  await header(page).getByText('Astrid Lindqvist', { exact: true }).waitFor();
  await prompt.waitFor({ state: 'detached' });
  await page.getByText('Ditt namn är sparat.').first().waitFor();
  await j.check('the name in the header');

  // 'Mina sidor' in the account menu.
  await header(page).getByRole('button', { name: 'Konto' }).click();
  await page.getByRole('menuitem', { name: 'Mina sidor' }).click();
  await expectPath(page, '/my/profile');
  await page.getByRole('heading', { level: 1, name: 'Min profil' }).waitFor();
  const field = page.getByRole('textbox', { name: 'Namn', exact: true });
  await expect.poll(() => field.inputValue()).toBe('Astrid Lindqvist');
  // The number the account is tied to, written the Swedish way.
  await page.getByRole('main').getByText(mobileNumberFor(j.name, j.viewport).typed, { exact: true }).waitFor();
  // The profile's shortcut cards, and the same two in my pages' nav.
  for (const link of await page.getByRole('main').getByRole('link', { name: /Mina greeties/ }).all()) expect(await link.getAttribute('href')).toBe('/greetie');
  for (const link of await page.getByRole('main').getByRole('link', { name: /Mina gåvor/ }).all()) expect(await link.getAttribute('href')).toBe('/voucher');
  await j.check('profile');

  // A refused name is said under the field; a good one is saved and the header follows.
  await field.fill('   ');
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await page.getByRole('main').getByRole('alert').getByText('Skriv ditt namn.').waitFor();
  await field.fill('Astrid L');
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await header(page).getByText('Astrid L', { exact: true }).waitFor();
  await expect.poll(() => page.getByRole('main').getByRole('alert').count()).toBe(0);
  await j.check('name changed');

  // Settings: the consent switch is saved at once.
  await page.getByRole('navigation', { name: 'Mina sidor' }).getByRole('link', { name: 'Inställningar' }).click();
  await expectPath(page, '/my/settings');
  const consent = page.getByRole('switch', { name: 'Skicka mig erbjudanden och nyheter' });
  await expect.poll(() => consent.getAttribute('aria-checked')).toBe('false');
  await consent.click();
  await expect.poll(() => consent.getAttribute('aria-checked')).toBe('true');
  await page.getByText('Sparat: du får erbjudanden och nyheter.').first().waitFor();
  await j.check('consent on');

  // Kept by the server: still on after a reload, and the name still in the header.
  await page.reload();
  await expect.poll(() => consent.getAttribute('aria-checked')).toBe('true');
  await header(page).getByText('Astrid L', { exact: true }).waitFor();
  await consent.click();
  await expect.poll(() => consent.getAttribute('aria-checked')).toBe('false');
  await page.getByText('Sparat: du får inga erbjudanden.').first().waitFor();
});

/**
 * My account: 'Ladda ner mina uppgifter' downloads everything held as a dated JSON
 * file; 'Radera mitt konto' names what would be lost, needs the number typed, and then the person
 * is signed out with a message, and the session they had is refused by the API at once.
 */
journey('my account', async (j) => {
  const { page } = j;
  const number = mobileNumberFor(j.name, j.viewport);
  await page.goto(LOGIN_PATH);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/');
  await page.getByRole('region', { name: 'Välkommen till Greetie!' }).getByRole('button', { name: 'Inte nu' }).click();

  await page.goto('/my/account');
  await page.getByRole('heading', { level: 1, name: 'Mitt konto' }).waitFor();
  await j.check('account');

  // The export: a dated JSON file with the profile in it.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Ladda ner mina uppgifter' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^greetie-mina-uppgifter-\d{4}-\d{2}-\d{2}\.json$/);
  // The browser runs apart from the test (connectBrowser): a copy is saved where the test can read it.
  const saved = path.join(os.tmpdir(), `${j.name.replace(/\W/g, '-')}-${j.viewport}-${download.suggestedFilename()}`);
  await download.saveAs(saved);
  const exported = JSON.parse(await readFile(saved, 'utf8')) as { profile: { mobileNumber: string }; sessions: unknown[] };
  await rm(saved, { force: true });
  expect(exported.profile.mobileNumber).toBe(number.e164);
  expect(exported.sessions.length).toBeGreaterThan(0);
  await page.getByText('Klart! Filen är nedladdad.').waitFor();
  // The access token this tab holds, to try again once the account is gone.
  const token = await page.evaluate(() => sessionStorage.getItem('accessToken'));
  expect(token).toBeTruthy();

  // Delete: the dialog says what is lost and wants the number.
  await page.getByRole('button', { name: 'Radera mitt konto' }).click();
  const dialog = page.getByRole('dialog', { name: 'Vill du radera ditt konto?' });
  await dialog.getByText('Du har inga gåvor kvar att lösa in.').waitFor();
  const confirm = dialog.getByRole('button', { name: 'Radera kontot' });
  expect(await confirm.isDisabled()).toBe(true);
  await dialog.getByRole('textbox').fill(number.typed);
  await expect.poll(() => confirm.isEnabled()).toBe(true);
  await j.check('confirm deletion');
  await confirm.click();

  // Signed out with a message, and the old session refused.
  await page.getByText('Ditt konto är raderat. Du är utloggad.').first().waitFor();
  await expectSignedOut(page);
  await j.check('deleted and signed out');
  const refused = await fetch(new URL('/api/auth/my', j.baseURL), { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status).toBe(401);
});
