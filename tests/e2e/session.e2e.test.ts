import path from 'node:path';
import { expect, inject } from 'vitest';
import type { Page } from 'playwright-core';
import { journey, connectBrowser } from './harness/journey.ts';
import {
  LOGIN_PATH,
  expectPath,
  expectSignedIn,
  expectSignedOut,
  header,
  mobileNumberFor,
  signInOnLoginPage,
} from './harness/app.ts';

/**
 * The session's life: a guarded page and the way back to it, the session kept across a reload
 * and into a new tab (the refresh cookie, decision 022), signing out.
 */

connectBrowser();

function loginQuery(page: Page): { path: string; returnTo: string | null } {
  const url = new URL(page.url());
  return { path: url.pathname, returnTo: url.searchParams.get('returnTo') };
}

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

journey('session in a new tab', async (j) => {
  const { page, context } = j;
  await page.goto(LOGIN_PATH);
  await signInOnLoginPage(j, { checkpoints: false });
  await expectPath(page, '/');
  await expectSignedIn(page);

  // The Swish app brings the payer back in a new tab: its sessionStorage is empty, the browser's
  // refresh cookie restores the session.
  const tab = await context.newPage();
  tab.on('console', (msg) => {
    if (msg.type() === 'error') j.problems.push(`console error in the new tab: ${msg.text()}`);
  });
  tab.on('pageerror', (err) => j.problems.push(`uncaught exception in the new tab: ${err.message}`));
  await tab.goto('/greetie');
  await tab.getByRole('main').getByRole('heading', { level: 1, name: 'Mina greeties' }).waitFor();
  await expectPath(tab, '/greetie');
  await expectSignedIn(tab);
  // The new tab has a refresh token of its own, so the two tabs never spend each other's.
  const refreshTokenOf = (p: typeof page) => p.evaluate(() => sessionStorage.getItem('refreshToken'));
  expect(await refreshTokenOf(tab)).toBeTruthy();
  expect(await refreshTokenOf(tab)).not.toBe(await refreshTokenOf(page));
  // The cookie is out of the page's reach, and scoped to the sign-in calls.
  expect(await tab.evaluate(() => document.cookie)).toBe('');
  const cookies = await context.cookies();
  expect(cookies.map((c) => ({ name: c.name, path: c.path, httpOnly: c.httpOnly, sameSite: c.sameSite }))).toEqual([
    { name: 'greetie_refresh', path: '/api/auth', httpOnly: true, sameSite: 'Strict' },
  ]);
  await tab.screenshot({ path: path.join(inject('resultsDir'), `session-in-a-new-tab-${j.viewport}-new-tab-signed-in.png`), fullPage: true });
  j.assertClean('the new tab');

  // The first tab is still signed in: the new tab spent the cookie's token, not the first tab's.
  await page.reload();
  await expectSignedIn(page);
  await j.check('first tab still signed in');

  // Signing out in the new tab ends the browser's sign-in: a third tab starts signed out.
  await header(tab).getByRole('button', { name: 'Konto' }).click();
  await tab.getByRole('menu').getByRole('menuitem', { name: 'Logga ut' }).click();
  await expectSignedOut(tab);
  await expect.poll(async () => (await context.cookies()).length).toBe(0);
  const third = await context.newPage();
  await third.goto('/greetie');
  await expect.poll(() => new URL(third.url()).pathname).toBe(LOGIN_PATH);
  await third.close();
  await tab.close();
});
