import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, expectPath, header, mobileNumberFor, signInOnLoginPage } from './harness/app.ts';

/**
 * My pages (issue 15, early part): after the first sign-in a person with no name is asked for
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
  expect(await page.getByRole('main').getByRole('link', { name: /Mina greeties/ }).getAttribute('href')).toBe('/greetie');
  expect(await page.getByRole('main').getByRole('link', { name: /Mina gåvor/ }).getAttribute('href')).toBe('/voucher');
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
