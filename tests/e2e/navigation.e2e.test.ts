import { journey, connectBrowser } from './harness/journey.ts';
import { LOGIN_PATH, closeNavigation, expectNavLinks, expectPath, header, openNavigation, signInControl, signInOnLoginPage } from './harness/app.ts';

/**
 * The site navigation: in the header on a desktop, in the drawer on a phone; what it offers a
 * visitor and a signed-in user, and the logo home.
 */

connectBrowser();

journey('navigation', async (j) => {
  const { page } = j;
  await page.goto('/');
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  // A visitor: 'Handlare' and 'Logga in' (on a phone both live in the drawer).
  let nav = await openNavigation(page);
  await nav.getByRole('link', { name: 'Handlare', exact: true }).waitFor();
  await signInControl(nav).waitFor();
  await j.check('navigation');
  await nav.getByRole('link', { name: 'Handlare', exact: true }).click();
  await expectPath(page, '/merchant');
  await closeNavigation(page);
  await page.getByRole('main').getByRole('heading', { level: 1, name: 'Handlare' }).waitFor();

  // 'Logga in' from the navigation; signed in, the navigation offers the user's own pages.
  nav = await openNavigation(page);
  await signInControl(nav).click();
  await expectPath(page, new RegExp(`^${LOGIN_PATH}`));
  await signInOnLoginPage(j, { checkpoints: false });
  nav = await openNavigation(page);
  await nav.getByRole('link', { name: 'Mina greeties', exact: true }).waitFor();
  await j.check('navigation signed in');
  await closeNavigation(page);
  await expectNavLinks(page, { 'Mina greeties': '/greetie', 'Mina gåvor': '/voucher' });
  // And home again with the logo.
  await header(page).getByRole('link').first().click();
  await expectPath(page, '/');
}, { walkAtBothSizes: true });
