import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../helpers.ts';

/** GET /api/seller: the company the terms, the privacy policy and the receipt name, from the settings. */
describe('the seller', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('answers the demo seller by default, publicly and cacheably', async () => {
    const t = await createTestApp();
    apps.push(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/seller' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'Greetie AB', orgNumber: '559999-9999', email: 'kundservice@greetie.example' });
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers what the settings say', async () => {
    const t = await createTestApp({ env: { SELLER_NAME: 'Hälsningar i Norr AB', SELLER_ORG_NUMBER: '556677-8899', SELLER_EMAIL: 'hej@example.se' } });
    apps.push(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/seller' });
    expect(res.json()).toEqual({ name: 'Hälsningar i Norr AB', orgNumber: '556677-8899', email: 'hej@example.se' });
  });

  it('refuses settings that are not an organisation number or an e-mail address, one line each', () => {
    const r = parseConfig({ SELLER_ORG_NUMBER: '5566778899', SELLER_EMAIL: 'nobody' }, { cwd: '/srv/greetie' });
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.errors;
    expect(errors.filter((e) => e.startsWith('SELLER_'))).toEqual([
      'SELLER_ORG_NUMBER must be a Swedish organisation number like 556677-8899 (got "5566778899")',
      'SELLER_EMAIL must be an e-mail address (got "nobody")',
    ]);
  });

  it('is in the OpenAPI document as a public operation', async () => {
    const t = await createTestApp();
    apps.push(t);
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const op = doc.paths['/api/seller'].get;
    expect(op.operationId).toBe('getSeller');
    expect(op.security).toEqual([]);
  });
});
