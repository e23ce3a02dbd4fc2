import { expect } from 'vitest';
import { journey, connectBrowser } from './harness/journey.ts';
import { expectPath } from './harness/app.ts';

/**
 * Köpvillkor, integritetspolicy and tillgänglighetsredogörelse: reached from the footer of any
 * page, naming the seller of the settings.
 */

connectBrowser();

journey('legal pages', async (j) => {
  const { page } = j;
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await footer.getByRole('link', { name: 'Köpvillkor' }).click();
  await expectPath(page, '/villkor');
  const main = page.getByRole('main');
  await main.getByRole('heading', { level: 1, name: 'Köpvillkor' }).waitFor();
  // The seller comes from the server's settings (demo defaults in the journeys' server).
  await main.getByText('Greetie AB (organisationsnummer 559999-9999)', { exact: false }).first().waitFor();
  await expect.poll(() => main.getByRole('heading', { level: 2, name: 'Ångerrätt' }).count()).toBe(1);
  await expect.poll(() => page.title()).toBe('Köpvillkor · Greetie');
  await j.check('köpvillkor');

  await footer.getByRole('link', { name: 'Integritetspolicy' }).click();
  await expectPath(page, '/integritet');
  await main.getByRole('heading', { level: 1, name: 'Integritetspolicy' }).waitFor();
  await main.getByRole('heading', { level: 2, name: 'Dina rättigheter' }).waitFor();
  await main.getByRole('link', { name: 'kundservice@greetie.example' }).first().waitFor();
  await j.check('integritetspolicy');

  await footer.getByRole('link', { name: 'Tillgänglighet' }).click();
  await expectPath(page, '/tillganglighet');
  await main.getByRole('heading', { level: 1, name: 'Tillgänglighetsredogörelse' }).waitFor();
  await main.getByRole('heading', { level: 2, name: 'Det här fungerar inte än' }).waitFor();
  await main.getByRole('link', { name: 'kundservice@greetie.example' }).first().waitFor();
  await expect.poll(() => page.title()).toBe('Tillgänglighetsredogörelse · Greetie');
  await j.check('tillgänglighetsredogörelse');
});
