import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, SWISH_PRODUCTION_URL } from '../../../server/config.ts';
import { expiredClient, swishTestEnv, testPki, type TestPki } from './test-ca.ts';

/** PAYMENT_PROVIDER and the SWISH_* settings (server/config.ts), checked at start. */
describe('payment settings', () => {
  let pki: TestPki;
  let swish: Record<string, string>;
  let dir: string;
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  beforeAll(async () => {
    pki = await testPki();
    swish = { PAYMENT_PROVIDER: 'swish', ...(await swishTestEnv()) };
    dir = mkdtempSync(path.join(tmpdir(), 'greetie-pay-cfg-'));
  });
  const errorsOf = (env: Record<string, string>) => {
    const r = parseConfig(env);
    return r.ok ? [] : r.errors;
  };

  it('uses the sandbox by default, and Swish when the sandbox is off', () => {
    const r = parseConfig({});
    expect(r.ok && r.config.payment.provider).toBe('sandbox');
    const off = parseConfig({ SANDBOX: 'off', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', TOKEN_SIGNING_KEY: 'k'.repeat(40), ...swish, PAYMENT_PROVIDER: '' });
    expect(off.ok && off.config.payment.provider).toBe('swish');
  });

  it('reads the Swish settings: the certificate, key and CA files, the payee alias, production by default', () => {
    const r = parseConfig(swish);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    expect(r.config.payment).toEqual({
      provider: 'swish',
      swish: { baseUrl: SWISH_PRODUCTION_URL, payeeAlias: '1231181189', cert: pki.client.certPem, key: pki.client.keyPem, passphrase: undefined, ca: pki.caPem },
    });
    const mss = parseConfig({ ...swish, SWISH_BASE_URL: 'https://mss.cpc.getswish.net/swish-cpcapi/' });
    expect(mss.ok && mss.config.payment.swish.baseUrl).toBe('https://mss.cpc.getswish.net/swish-cpcapi');
  });

  it('reports one line per missing setting, naming it', () => {
    const errors = errorsOf({ PAYMENT_PROVIDER: 'swish' });
    for (const name of ['SWISH_PAYEE_ALIAS', 'SWISH_CERT', 'SWISH_KEY', 'SWISH_CA', 'PUBLIC_URL']) {
      expect(errors.filter((e) => e.startsWith(name)), name).toHaveLength(1);
    }
    expect(errors).toHaveLength(5);
    for (const e of errors) expect(e).not.toContain('\n');
  });

  it('refuses an unknown provider, and the sandbox provider without the sandbox', () => {
    expect(errorsOf({ PAYMENT_PROVIDER: 'klarna' })).toEqual(['PAYMENT_PROVIDER must be "sandbox" or "swish" (got "klarna")']);
    expect(
      errorsOf({ SANDBOX: 'off', ELKS_USERNAME: 'u', ELKS_PASSWORD: 'p', TOKEN_SIGNING_KEY: 'k'.repeat(40), PUBLIC_URL: 'https://greetie.test', PAYMENT_PROVIDER: 'sandbox' }),
    ).toEqual(['PAYMENT_PROVIDER=sandbox needs SANDBOX on']);
  });

  it('needs PUBLIC_URL on HTTPS port 443, where Swish calls back', () => {
    for (const url of ['http://greetie.test', 'https://greetie.test:8443']) {
      expect(errorsOf({ ...swish, PUBLIC_URL: url })).toEqual([expect.stringMatching(/^PUBLIC_URL must be https:\/\/ on port 443/)]);
    }
    expect(errorsOf({ ...swish, PUBLIC_URL: 'https://greetie.test:443' })).toEqual([]);
  });

  it('refuses a payee alias that is not a merchant Swish number, and a base URL that is not HTTPS', () => {
    expect(errorsOf({ ...swish, SWISH_PAYEE_ALIAS: '0701234567' })).toEqual([expect.stringMatching(/^SWISH_PAYEE_ALIAS /)]);
    expect(errorsOf({ ...swish, SWISH_BASE_URL: 'http://mss.cpc.getswish.net/swish-cpcapi' })).toEqual([expect.stringMatching(/^SWISH_BASE_URL /)]);
  });

  it('says which file cannot be read', () => {
    expect(errorsOf({ ...swish, SWISH_CERT: '/nonexistent/merchant.pem' })).toEqual(['SWISH_CERT: cannot read "/nonexistent/merchant.pem" (no such file)']);
    expect(errorsOf({ ...swish, SWISH_CA: dir })).toEqual([expect.stringMatching(/^SWISH_CA: cannot read /)]);
  });

  it('refuses files that are not PEM certificates or keys', () => {
    const junk = file('junk.pem', 'not a certificate\n');
    expect(errorsOf({ ...swish, SWISH_CERT: junk, SWISH_KEY: junk, SWISH_CA: junk })).toEqual([
      expect.stringMatching(/^SWISH_CERT does not hold a PEM certificate/),
      expect.stringMatching(/^SWISH_KEY does not hold a PEM private key/),
      expect.stringMatching(/^SWISH_CA does not hold a PEM certificate/),
    ]);
  });

  it('refuses a key that is not the certificate\'s', () => {
    expect(errorsOf({ ...swish, SWISH_KEY: pki.files.strangerKey })).toEqual(['SWISH_KEY is not the private key of the certificate in SWISH_CERT']);
  });

  it('refuses an expired certificate', async () => {
    const expired = await expiredClient();
    const errors = errorsOf({ ...swish, SWISH_CERT: file('expired.pem', expired.certPem), SWISH_KEY: file('expired.key', expired.keyPem) });
    expect(errors).toEqual([expect.stringMatching(/^SWISH_CERT: the certificate expired on /)]);
  });

  it('opens an encrypted key with SWISH_KEY_PASSPHRASE, and says so when it is missing or wrong', () => {
    const encrypted = createPrivateKey(pki.client.keyPem).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'hemligt' }) as string;
    const keyFile = file('encrypted.key', encrypted);
    expect(errorsOf({ ...swish, SWISH_KEY: keyFile, SWISH_KEY_PASSPHRASE: 'hemligt' })).toEqual([]);
    expect(errorsOf({ ...swish, SWISH_KEY: keyFile })).toEqual(['SWISH_KEY is encrypted: set SWISH_KEY_PASSPHRASE']);
    expect(errorsOf({ ...swish, SWISH_KEY: keyFile, SWISH_KEY_PASSPHRASE: 'fel' })).toEqual([expect.stringMatching(/^SWISH_KEY does not hold a PEM private key that opens/)]);
  });
});
