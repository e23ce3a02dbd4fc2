import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers.ts';
import { authTestApp, freshNumber, requestCode } from './support.ts';
import { swishTestEnv } from '../payment/test-ca.ts';

describe('GET /api/sandbox/sms', () => {
  let t: Awaited<ReturnType<typeof authTestApp>>;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the outbox newest first, and filters by number in any form', async () => {
    const a = '+46701112233';
    const b = freshNumber();
    await requestCode(t.app, a);
    t.clock.advance(1000);
    await requestCode(t.app, b);
    t.clock.advance(1000);
    await requestCode(t.app, a);
    const all = (await t.app.inject({ method: 'GET', url: '/api/sandbox/sms' })).json() as { to: string; sentAt: string }[];
    expect(all.map((m) => m.to)).toEqual([a, b, a]);
    expect(all[0]!.sentAt > all[1]!.sentAt).toBe(true);
    const onlyA = (await t.app.inject({ method: 'GET', url: `/api/sandbox/sms?to=${encodeURIComponent('070-111 22 33')}` })).json() as unknown[];
    expect(onlyA).toHaveLength(2);
    const nobody = (await t.app.inject({ method: 'GET', url: '/api/sandbox/sms?to=nobody' })).json() as unknown[];
    expect(nobody).toEqual([]);
  });
});

describe('with SANDBOX=off', () => {
  it('has no outbox (404)', async () => {
    const t = await createTestApp({ env: { SANDBOX: 'off', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', ...(await swishTestEnv()) } });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/sandbox/sms' });
      expect(res.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
