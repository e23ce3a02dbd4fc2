import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig, resolveTokenSigningKey } from '../../../server/config.ts';
import { swishTestEnv } from '../payment/test-ca.ts';

describe('settings from the environment', () => {
  it('has working defaults: port 3000, ./data, sandbox on, embedded database', () => {
    const r = parseConfig({}, { cwd: '/srv/greetie' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.port).toBe(3000);
    expect(r.config.dataDir).toBe('/srv/greetie/data');
    expect(r.config.sandbox).toBe(true);
    expect(r.config.databaseUrl).toBeUndefined();
    expect(r.config.publicUrl).toBe('http://localhost:3000');
    expect(r.config.logLevel).toBe('info');
    expect(r.config.sms.provider).toBe('sandbox');
    expect(r.config.payment.provider).toBe('sandbox');
  });

  it('reads every setting', async () => {
    const r = parseConfig({
      ...(await swishTestEnv()),
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/greetie',
      DATABASE_URL: 'postgres://u:p@db:5432/greetie',
      SANDBOX: 'off',
      PUBLIC_URL: 'https://greetie.se/',
      TOKEN_SIGNING_KEY: 'k'.repeat(40),
      LOG_LEVEL: 'warn',
      ELKS_USERNAME: 'u',
      ELKS_PASSWORD: 'p',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/greetie',
      databaseUrl: 'postgres://u:p@db:5432/greetie',
      sandbox: false,
      publicUrl: 'https://greetie.se',
      logLevel: 'warn',
    });
    expect(r.config.sms.provider).toBe('46elks');
    expect(r.config.payment.provider).toBe('swish');
  });

  it('reports one line per problem, naming the variable', () => {
    const r = parseConfig({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      SANDBOX: 'maybe',
      PUBLIC_URL: 'greetie.se',
      TOKEN_SIGNING_KEY: 'short',
      LOG_LEVEL: 'loud',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    for (const name of ['PORT', 'DATABASE_URL', 'SANDBOX', 'PUBLIC_URL', 'TOKEN_SIGNING_KEY', 'LOG_LEVEL']) {
      expect(r.errors.filter((e) => e.startsWith(name))).toHaveLength(1);
    }
    for (const e of r.errors) expect(e).not.toContain('\n');
  });

  it('trusts no proxy by default, so X-Forwarded-For cannot fake a client address', () => {
    const r = (env: Record<string, string>) => {
      const c = parseConfig(env);
      return c.ok ? c.config.trustProxy : c.errors;
    };
    expect(r({})).toBe(false);
    expect(r({ TRUST_PROXY: 'on' })).toBe(true);
    expect(r({ TRUST_PROXY: '2' })).toBe(2);
    expect(r({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' })).toBe('10.0.0.0/8, 127.0.0.1');
    expect(r({ TRUST_PROXY: 'everyone' })).toEqual([expect.stringMatching(/^TRUST_PROXY /)]);
  });

  it('needs 46elks credentials when the sandbox is off', () => {
    const r = parseConfig({ SANDBOX: 'off' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.join('\n')).toMatch(/ELKS_USERNAME and ELKS_PASSWORD/);
  });

  it('sizes the database pool from DATABASE_POOL_SIZE: 10 by default, a whole number from 1 to 200', () => {
    const size = (v?: string) => {
      const r = parseConfig(v === undefined ? {} : { DATABASE_POOL_SIZE: v });
      return r.ok ? r.config.databasePoolSize : r.errors;
    };
    expect(size()).toBe(10);
    expect(size('')).toBe(10);
    expect(size('1')).toBe(1);
    expect(size('200')).toBe(200);
    for (const bad of ['0', '201', '2.5', 'ten', '-3']) {
      expect(size(bad)).toEqual([`DATABASE_POOL_SIZE must be a whole number from 1 to 200 (got "${bad}")`]);
    }
  });

  it('with the sandbox off, needs TOKEN_SIGNING_KEY and PUBLIC_URL set explicitly (one line each)', async () => {
    const complete = { ...(await swishTestEnv()), SANDBOX: 'off', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', TOKEN_SIGNING_KEY: 'k'.repeat(40) };
    expect(parseConfig(complete).ok).toBe(true);
    const without = (...names: string[]) => {
      const env: Record<string, string> = { ...complete };
      for (const n of names) delete env[n];
      const r = parseConfig(env);
      return r.ok ? [] : r.errors;
    };
    expect(without('TOKEN_SIGNING_KEY')).toEqual([
      'TOKEN_SIGNING_KEY must be set when SANDBOX=off (at least 32 characters, the same on every server process)',
    ]);
    // PUBLIC_URL's default (http://localhost:3000) also fails Swish's https check: both lines name it.
    const noUrl = without('PUBLIC_URL');
    expect(noUrl).toContain('PUBLIC_URL must be set when SANDBOX=off (the address people reach the app at, the same on every server process)');
    expect(noUrl.every((e) => e.startsWith('PUBLIC_URL '))).toBe(true);
    expect(without('TOKEN_SIGNING_KEY', 'PUBLIC_URL').filter((e) => /must be set when SANDBOX=off/.test(e))).toHaveLength(2);
    // An empty value is not a setting.
    expect(parseConfig({ ...complete, TOKEN_SIGNING_KEY: '' }).ok).toBe(false);
    // With the sandbox on, the defaults stay (a generated key under DATA_DIR, localhost).
    expect(parseConfig({}).ok).toBe(true);
  });

  it('generates a signing key once, keeps it private under DATA_DIR, and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'greetie-cfg-'));
    const r = parseConfig({ DATA_DIR: dir });
    if (!r.ok) throw new Error(r.errors.join());
    const first = resolveTokenSigningKey(r.config);
    expect(first.tokenSigningKey.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, 'token-signing.key');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.tokenSigningKey);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(resolveTokenSigningKey(r.config).tokenSigningKey).toBe(first.tokenSigningKey);
  });

  it('uses TOKEN_SIGNING_KEY when given, writing nothing', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'greetie-cfg-'));
    const r = parseConfig({ DATA_DIR: dir, TOKEN_SIGNING_KEY: 'x'.repeat(32) });
    if (!r.ok) throw new Error(r.errors.join());
    expect(resolveTokenSigningKey(r.config).tokenSigningKey).toBe('x'.repeat(32));
    expect(() => statSync(path.join(dir, 'token-signing.key'))).toThrow();
  });
});

describe('UNOPENED_REMINDERS and UNOPENED_NOTICE (ISO-8601 durations)', () => {
  const delivery = (env: Record<string, string>) => {
    const r = parseConfig(env, { cwd: '/srv/greetie' });
    return r.ok ? { ok: true as const, d: r.config.delivery } : { ok: false as const, errors: r.errors };
  };

  it('default to P3D,P10D and P14D; "off" turns them off; calendar units are kept', () => {
    const r = delivery({});
    expect(r.ok && r.d.unopenedReminders.map((d) => d.iso)).toEqual(['P3D', 'P10D']);
    expect(r.ok && r.d.unopenedNotice?.iso).toBe('P14D');
    const off = delivery({ UNOPENED_REMINDERS: 'off', UNOPENED_NOTICE: 'OFF' });
    expect(off.ok && [off.d.unopenedReminders, off.d.unopenedNotice]).toEqual([[], null]);
    const set = delivery({ UNOPENED_REMINDERS: 'PT12H, P1W,p1m', UNOPENED_NOTICE: 'P1M2DT3H' });
    expect(set.ok && set.d.unopenedReminders.map((d) => d.iso)).toEqual(['PT12H', 'P1W', 'P1M']);
    expect(set.ok && set.d.unopenedNotice?.parts).toMatchObject({ months: 1, days: 2, hours: 3 });
  });

  it.each([
    ['UNOPENED_REMINDERS', '3 days'],
    ['UNOPENED_REMINDERS', 'P10D,P3D'],
    ['UNOPENED_REMINDERS', 'P3D,P3D'],
    ['UNOPENED_REMINDERS', 'P0D'],
    ['UNOPENED_REMINDERS', 'xP3D'],
    ['UNOPENED_NOTICE', 'P'],
    ['UNOPENED_NOTICE', 'PT'],
    ['UNOPENED_NOTICE', 'P14DX'],
  ])('refuses %s=%s, naming the setting', (name, value) => {
    const r = delivery({ [name]: value });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors.join('\n')).toContain(name);
  });
});
