import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installAuthentication } from '../../../server/auth/authenticate.ts';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken, keysFor } from '../../../server/auth/tokens.ts';
import { testConfig } from '../helpers.ts';

/**
 * app.authenticateOptional (server/auth/authenticate.ts): the one hook for public routes that
 * answer a signed-in caller differently (GET /greetie/byRef). The same token check as
 * app.authenticate, without its database read: a valid token sets req.userId, anything else
 * leaves it '' and the request goes on as a visitor's, never a 401.
 */

const config = testConfig();
const now = new Date('2026-11-27T12:00:00Z');
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  // What the hook reads: the settings (the signing key) and the clock. No database.
  app.decorate('config', config);
  app.decorate('services', { now: () => now } as FastifyInstance['services']);
  installAuthentication(app);
  app.get('/whoami', { preHandler: app.authenticateOptional }, async (req) => ({ userId: req.userId }));
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

const whoami = async (authorization?: string) => {
  const res = await app.inject({ method: 'GET', url: '/whoami', headers: authorization === undefined ? {} : { authorization } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { userId: string }).userId;
};

describe('app.authenticateOptional', () => {
  it('names the caller of a valid access token', async () => {
    const userId = randomUUID();
    expect(await whoami(`Bearer ${await issueAccessToken(keysFor(config), userId, now)}`)).toBe(userId);
  });

  it('treats no token, a malformed header, a forged, foreign or expired token as a visitor', async () => {
    const userId = randomUUID();
    const expired = await issueAccessToken(keysFor(config), userId, new Date(now.getTime() - (ACCESS_TOKEN_TTL_SECONDS + 60) * 1000));
    const foreign = await issueAccessToken(keysFor({ tokenSigningKey: 'another-key-another-key-another-key' }), userId, now);
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer not.a.token', `Bearer ${expired}`, `Bearer ${foreign}`]) {
      expect(await whoami(header), String(header)).toBe('');
    }
  });
});
