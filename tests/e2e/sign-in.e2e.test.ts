import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, expectPath, expectVisibleFocus, linkTo, signInOnLoginPage, tabTo } from './harness/app.ts';

/**
 * Signing in with the code from the SMS, by pointer and by keyboard alone. Every journey signs in
 * with its own mobile number, read back from the sandbox SMS outbox.
 */

connectBrowser();

journey('sign-in', async (j) => {
  const { page } = j;
  await page.goto('/');
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  // The landing page's own 'Logga in' (the header's is in the navigation journey).
  await (await linkTo(page.getByRole('main'), LOGIN_PATH)).click();
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j);
  await expectPath(page, '/');
  await j.check('signed in');
});

journey('sign-in by keyboard', async (j) => {
  const { page } = j;
  await page.goto('/');
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  // From the landing page to the login page with Tab and Enter only.
  const signIn = await linkTo(page.getByRole('main'), LOGIN_PATH);
  await tabTo(page, signIn);
  await expectVisibleFocus(signIn);
  await page.keyboard.press('Enter');
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j, { keyboard: true });
  await expectPath(page, '/');
  await j.check('signed in');
});
