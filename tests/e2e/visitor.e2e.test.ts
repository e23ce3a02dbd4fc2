import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { api, expectPath, header, kronorPattern, linkTo, switchLanguage } from './harness/app.ts';
import { ROOT } from './harness/server.ts';

/** What a visitor (not signed in) meets: the landing page, the catalogue, a wrong address, the language. */

connectBrowser();

interface Merchant {
  id: string;
  name: string;
  description: string;
}
interface Product {
  id: string;
  name: string;
  price?: number;
  minAmount?: number;
  maxAmount?: number;
}

const locale = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(ROOT, 'locales', lang, `${ns}.json`), 'utf8'));
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const lang = (j: { page: { evaluate: <T>(fn: () => T) => Promise<T> } }) => j.page.evaluate(() => document.documentElement.lang);

journey('landing', async (j) => {
  const { page } = j;
  await page.goto('/');
  const main = page.getByRole('main');
  await main.getByRole('heading', { level: 1 }).waitFor();
  expect(await lang(j)).toBe('sv');
  expect(await page.title()).toMatch(/Greetie/);
  // The logo takes you home; a visitor is offered the merchants and 'Logga in'.
  expect(await header(page).getByRole('link').first().getAttribute('href')).toBe('/');
  // Two calls to action: browse the merchants, and send a greetie.
  const hrefs = await main.getByRole('link').evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  expect(hrefs).toEqual(expect.arrayContaining([expect.stringMatching(/^\/merchant/)]));
  expect(hrefs.some((h) => h.startsWith('/greetie') || h.startsWith('/start') || h.startsWith('/auth'))).toBe(true);
  expect(await header(page).getByRole('button', { name: 'Konto' }).count()).toBe(0);
  await j.check('landing');

  await page.goto('/start');
  await main.getByRole('heading', { level: 1 }).waitFor();
  await j.check('start');
});

journey('merchants', async (j) => {
  const { page } = j;
  const merchants = await api<Merchant[]>(j.baseURL, '/api/merchant');
  expect(merchants.length).toBeGreaterThanOrEqual(12);

  // From the landing page's call to action.
  await page.goto('/');
  const main = page.getByRole('main');
  await (await linkTo(main, '/merchant')).click();
  await expectPath(page, '/merchant');
  await main.getByRole('heading', { level: 1, name: 'Handlare' }).waitFor();
  await main.getByRole('link', { name: new RegExp(escape(merchants[0]!.name)) }).first().waitFor();
  await j.check('merchant list');

  // Search narrows the list: pick a merchant and another that neither its name nor description matches.
  const target = merchants.find((m) => merchants.filter((o) => o.name.toLowerCase().includes(m.name.toLowerCase())).length === 1) ?? merchants[0]!;
  const other = merchants.find((m) => m.id !== target.id && !`${m.name} ${m.description}`.toLowerCase().includes(target.name.toLowerCase()))!;
  await main.getByRole('link', { name: new RegExp(escape(other.name)) }).first().waitFor();
  await page.getByRole('searchbox', { name: 'Sök' }).or(page.getByLabel('Sök', { exact: true })).first().fill(target.name);
  await expect.poll(() => main.getByRole('link', { name: new RegExp(escape(other.name)) }).count()).toBe(0);
  const targetLink = main.getByRole('link', { name: new RegExp(escape(target.name)) }).first();
  await targetLink.waitFor();
  await j.check('merchant search');

  // A merchant's page: its name, its products, prices written the Swedish way.
  await targetLink.click();
  await expectPath(page, `/merchant/details/${target.id}`);
  await main.getByRole('heading', { level: 1, name: target.name }).waitFor();
  const products = await api<Product[]>(j.baseURL, `/api/merchant/${target.id}/products`);
  expect(products.length).toBeGreaterThan(0);
  for (const p of products) await main.getByText(p.name, { exact: true }).first().waitFor();
  const priced = products.find((p) => typeof p.price === 'number');
  if (priced) await main.getByText(new RegExp(`${kronorPattern(priced.price!)}\\s?kr`)).first().waitFor();
  const ranged = products.find((p) => typeof p.minAmount === 'number' && typeof p.maxAmount === 'number');
  if (ranged) await main.getByText(new RegExp(`${kronorPattern(ranged.minAmount!)}\\s?[–-]\\s?${kronorPattern(ranged.maxAmount!)}\\s?kr`)).first().waitFor();
  await j.check('merchant products');
});

journey('unknown path', async (j) => {
  const { page } = j;
  await page.goto('/');
  await page.getByRole('main').getByRole('heading', { level: 1 }).waitFor();
  await page.goto('/det-har-finns-inte/alls?fel=1');
  await expectPath(page, '/404');
  await page.getByRole('main').getByRole('heading', { level: 1, name: locale('sv', 'common').pages.notFound.title }).waitFor();
  await j.check('not found');
  // The unknown address was replaced in the history: Back returns to where the visitor was.
  await page.goBack();
  await expectPath(page, '/');
  // And the way home from the 404 page.
  await page.goForward();
  await expectPath(page, '/404');
  await page.getByRole('main').getByRole('link', { name: locale('sv', 'common').notFound.home }).click();
  await expectPath(page, '/');
});

journey('language', async (j) => {
  const { page } = j;
  const sv = locale('sv', 'common');
  const en = locale('en', 'common');
  await page.goto('/404');
  const heading = page.getByRole('main').getByRole('heading', { level: 1 });
  await expect.poll(() => heading.textContent()).toBe(sv.pages.notFound.title);
  await switchLanguage(page, 'en');
  await expect.poll(() => heading.textContent()).toBe(en.pages.notFound.title);
  await j.check('english');

  // Kept across a reload (localStorage 'i18nextLng'), <html lang> included.
  await page.reload();
  await expect.poll(() => heading.textContent()).toBe(en.pages.notFound.title);
  expect(await lang(j)).toBe('en');
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
  await j.check('english after reload');

  await switchLanguage(page, 'sv');
  await expect.poll(() => heading.textContent()).toBe(sv.pages.notFound.title);
  await page.reload();
  await expect.poll(() => heading.textContent()).toBe(sv.pages.notFound.title);
  expect(await lang(j)).toBe('sv');
});
