import { describe, expect, it } from 'vitest';
import { createECDH } from 'node:crypto';
import webpush from 'web-push';
import { parseConfig } from '../../../server/config.ts';
import { DEFAULT_WEBPUSH_HOSTS } from '../../../server/providers/push/endpoint.ts';

/** PUSH_PROVIDER, EXPO_BASE_URL, VAPID_* and WEBPUSH_ALLOWED_HOSTS (server/config.ts parsePush): each problem one line. */

const base = { SANDBOX: 'on', DATA_DIR: '/tmp/greetie-config-test' };

function errorsOf(env: Record<string, string>): string[] {
  const r = parseConfig(env);
  return r.ok ? [] : r.errors;
}

describe('push settings', () => {
  it('default to the sandbox outbox while the sandbox is on, and to Expo when it is off', () => {
    const on = parseConfig(base);
    expect(on.ok && on.config.push).toEqual({ provider: 'sandbox', expoAccessToken: undefined, expoBaseUrl: undefined, vapidSubject: 'mailto:kundservice@greetie.example', vapidKeys: undefined, webpushAllowedHosts: DEFAULT_WEBPUSH_HOSTS });
    const off = parseConfig({ ...base, SANDBOX: 'off' });
    expect(off.ok).toBe(false);
    expect(errorsOf({ ...base, SANDBOX: 'off' }).filter((e) => /PUSH|EXPO|VAPID/.test(e))).toEqual([]);
  });

  it('take expo with an access token and another base URL', () => {
    const r = parseConfig({ ...base, PUSH_PROVIDER: 'expo', EXPO_ACCESS_TOKEN: 'tok', EXPO_BASE_URL: 'http://127.0.0.1:9999/', VAPID_SUBJECT: 'https://greetie.example/kontakt' });
    expect(r.ok && r.config.push).toEqual({ provider: 'expo', expoAccessToken: 'tok', expoBaseUrl: 'http://127.0.0.1:9999', vapidSubject: 'https://greetie.example/kontakt', vapidKeys: undefined, webpushAllowedHosts: DEFAULT_WEBPUSH_HOSTS });
  });

  it('name what is wrong', () => {
    expect(errorsOf({ ...base, PUSH_PROVIDER: 'apns' })).toEqual(['PUSH_PROVIDER must be "sandbox" or "expo" (got "apns")']);
    expect(errorsOf({ ...base, EXPO_BASE_URL: 'exp.host' })).toEqual(['EXPO_BASE_URL must be an http:// or https:// URL']);
    expect(errorsOf({ ...base, VAPID_SUBJECT: 'greetie' })).toEqual(['VAPID_SUBJECT must be a mailto: address or an https:// URL']);
    expect(errorsOf({ ...base, SANDBOX: 'off', PUSH_PROVIDER: 'sandbox' })).toContain('PUSH_PROVIDER=sandbox needs SANDBOX on');
  });

  it('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither, a P-256 pair that belongs together', () => {
    const keys = webpush.generateVAPIDKeys();
    const r = parseConfig({ ...base, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    expect(r.ok && r.config.push.vapidKeys).toEqual(keys);
    expect(errorsOf({ ...base, VAPID_PUBLIC_KEY: keys.publicKey })).toEqual([
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither to keep a generated pair in the database',
    ]);
    expect(errorsOf({ ...base, VAPID_PRIVATE_KEY: keys.privateKey })).toHaveLength(1);
    expect(errorsOf({ ...base, VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: keys.privateKey })[0]).toMatch(/^VAPID_PUBLIC_KEY must be a P-256 public key/);
    expect(errorsOf({ ...base, VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: 'not a key!' })[0]).toMatch(/^VAPID_PRIVATE_KEY must be a P-256 private key/);
    const other = webpush.generateVAPIDKeys();
    expect(errorsOf({ ...base, VAPID_PUBLIC_KEY: other.publicKey, VAPID_PRIVATE_KEY: keys.privateKey })).toEqual(['VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY']);
    // A compressed point is not what browsers take as applicationServerKey.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(keys.privateKey, 'base64url'));
    expect(errorsOf({ ...base, VAPID_PUBLIC_KEY: ecdh.getPublicKey(undefined, 'compressed').toString('base64url'), VAPID_PRIVATE_KEY: keys.privateKey })).toHaveLength(1);
  });

  it('WEBPUSH_ALLOWED_HOSTS: the browsers\' push services by default, `*`, or host names', () => {
    const r = parseConfig({ ...base, WEBPUSH_ALLOWED_HOSTS: ' Push.Example.Test , *.notify.windows.com ' });
    expect(r.ok && r.config.push.webpushAllowedHosts).toEqual(['push.example.test', '*.notify.windows.com']);
    const any = parseConfig({ ...base, WEBPUSH_ALLOWED_HOSTS: '*' });
    expect(any.ok && any.config.push.webpushAllowedHosts).toBe('*');
    expect(DEFAULT_WEBPUSH_HOSTS).toEqual(['fcm.googleapis.com', 'updates.push.services.mozilla.com', '*.notify.windows.com', 'web.push.apple.com']);
    expect(errorsOf({ ...base, WEBPUSH_ALLOWED_HOSTS: 'https://fcm.googleapis.com,a b' })).toEqual([
      'WEBPUSH_ALLOWED_HOSTS must be "*" or comma-separated host names such as fcm.googleapis.com or *.notify.windows.com (not "https://fcm.googleapis.com", "a b")',
    ]);
  });
});
