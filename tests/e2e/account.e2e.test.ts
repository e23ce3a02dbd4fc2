import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { journey, connectBrowser } from './harness/journey.ts';
import {
  LOGIN_PATH,
  MENU_BUTTON,
  signInControl,
  clickHeaderSignIn,
  expectNavLinks,
  expectPath,
  expectSignedIn,
  expectSignedOut,
  header,
  mobileNumberFor,
  signInOnLoginPage,
  tabTo,
} from './harness/app.ts';

/**
 * A person with an account: signing in with the code from the SMS (by pointer and by keyboard
 * alone), a guarded page and the way back to it, the session kept across a reload, signing out.
 * Every journey signs in with its own mobile number, read back from the sandbox SMS outbox.
 */

connectBrowser();

const SIGNED_IN_LINKS = { 'Mina greeties': '/greetie', 'Mina gåvor': '/voucher' };

function loginQuery(page: Page): { path: string; returnTo: string | null } {
  const url = new URL(page.url());
  return { path: url.pathname, returnTo: url.searchParams.get('returnTo') };
}

journey('sign-in', async (j) => {
  const { page } = j;
  await page.goto('/');
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  await clickHeaderSignIn(page);
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j);
  await expectPath(page, '/');
  await expectNavLinks(page, SIGNED_IN_LINKS);
  await j.check('signed in');
});

journey('sign-in by keyboard', async (j) => {
  const { page } = j;
  await page.goto('/');
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  // From the landing page to the login page with Tab and Enter only.
  const signIn = signInControl(header(page));
  if (await signIn.isVisible()) {
    await tabTo(page, signIn);
  } else {
    await tabTo(page, header(page).getByRole('button', { name: MENU_BUTTON }));
    await page.keyboard.press('Enter');
    await tabTo(page, signInControl(page.getByRole('dialog')));
  }
  await page.keyboard.press('Enter');
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j, { keyboard: true });
  await expectPath(page, '/');
  await j.check('signed in');
});

journey('guarded page and returnTo', async (j) => {
  const { page } = j;
  // A visitor opening a page that needs an account is sent to sign in, the way back remembered.
  await page.goto('/voucher/list?visa=alla');
  await expect.poll(() => loginQuery(page)).toEqual({ path: LOGIN_PATH, returnTo: '/voucher/list?visa=alla' });
  await signInOnLoginPage(j);
  await expectPath(page, '/voucher/list?visa=alla');
  await page.getByRole('main').getByRole('heading', { level: 1, name: 'Mina gåvor' }).waitFor();
  await j.check('back on the guarded page');

  // Signed in, the login page sends you on: to returnTo when it is a path of this site…
  await page.goto(`${LOGIN_PATH}?returnTo=${encodeURIComponent('/greetie')}`);
  await expectPath(page, '/greetie');
  // …and home when it points anywhere else (no open redirect).
  for (const evil of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
    await page.goto(`${LOGIN_PATH}?returnTo=${encodeURIComponent(evil)}`);
    await expectPath(page, '/');
    expect(new URL(page.url()).origin).toBe(new URL(j.baseURL).origin);
  }
});

journey('session across reload', async (j) => {
  const { page } = j;
  await page.goto(LOGIN_PATH);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/');
  await page.reload();
  await expectSignedIn(page);
  // Guarded pages open directly: the restored session is a real one.
  await page.goto('/greetie');
  await page.getByRole('main').getByRole('heading', { level: 1, name: 'Mina greeties' }).waitFor();
  await expectPath(page, '/greetie');
  await expectSignedIn(page);
  await j.check('signed in after reload');
});

journey('logout', async (j) => {
  const { page } = j;
  await page.goto(LOGIN_PATH);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/');

  await header(page).getByRole('button', { name: 'Konto' }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  // No name yet: the menu shows the mobile number.
  const digits = mobileNumberFor(j.name, j.viewport).e164.slice(-7);
  await expect.poll(async () => ((await menu.textContent()) ?? '').replace(/\D/g, '')).toContain(digits);
  await j.check('account menu');
  await menu.getByRole('menuitem', { name: 'Logga ut' }).click();
  await expectPath(page, '/');
  await expectSignedOut(page);
  await j.check('signed out');

  // Signed out for real: after a reload too, and guarded pages ask to sign in again.
  await page.reload();
  await expectSignedOut(page);
  await page.goto('/greetie');
  await expect.poll(() => loginQuery(page)).toEqual({ path: LOGIN_PATH, returnTo: '/greetie' });
});
