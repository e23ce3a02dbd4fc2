import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../server/config.ts';

/** PUSH_PROVIDER, EXPO_BASE_URL and VAPID_SUBJECT (server/config.ts parsePush): each problem one line. */

const base = { SANDBOX: 'on', DATA_DIR: '/tmp/greetie-config-test' };

function errorsOf(env: Record<string, string>): string[] {
  const r = parseConfig(env);
  return r.ok ? [] : r.errors;
}

describe('push settings', () => {
  it('default to the sandbox outbox while the sandbox is on, and to Expo when it is off', () => {
    const on = parseConfig(base);
    expect(on.ok && on.config.push).toEqual({ provider: 'sandbox', expoAccessToken: undefined, expoBaseUrl: undefined, vapidSubject: 'mailto:kundservice@greetie.example' });
    const off = parseConfig({ ...base, SANDBOX: 'off' });
    expect(off.ok).toBe(false);
    expect(errorsOf({ ...base, SANDBOX: 'off' }).filter((e) => /PUSH|EXPO|VAPID/.test(e))).toEqual([]);
  });

  it('take expo with an access token and another base URL', () => {
    const r = parseConfig({ ...base, PUSH_PROVIDER: 'expo', EXPO_ACCESS_TOKEN: 'tok', EXPO_BASE_URL: 'http://127.0.0.1:9999/', VAPID_SUBJECT: 'https://greetie.example/kontakt' });
    expect(r.ok && r.config.push).toEqual({ provider: 'expo', expoAccessToken: 'tok', expoBaseUrl: 'http://127.0.0.1:9999', vapidSubject: 'https://greetie.example/kontakt' });
  });

  it('name what is wrong', () => {
    expect(errorsOf({ ...base, PUSH_PROVIDER: 'apns' })).toEqual(['PUSH_PROVIDER must be "sandbox" or "expo" (got "apns")']);
    expect(errorsOf({ ...base, EXPO_BASE_URL: 'exp.host' })).toEqual(['EXPO_BASE_URL must be an http:// or https:// URL']);
    expect(errorsOf({ ...base, VAPID_SUBJECT: 'greetie' })).toEqual(['VAPID_SUBJECT must be a mailto: address or an https:// URL']);
    expect(errorsOf({ ...base, SANDBOX: 'off', PUSH_PROVIDER: 'sandbox' })).toContain('PUSH_PROVIDER=sandbox needs SANDBOX on');
  });
});
