import 'reflect-metadata'; // @peculiar/x509's dependency injection (tsyringe) needs it loaded first
import { webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

/**
 * A throw-away certificate authority for the Swish tests, made in the test (nothing secret is
 * committed): a root CA, the fake Swish server's certificate for 127.0.0.1/localhost, and a
 * merchant client certificate — the shape of Swish's own set-up, where the merchant is issued a
 * client certificate and trusts Swish's root for the server.
 */
export interface TestPki {
  caPem: string;
  server: { certPem: string; keyPem: string };
  client: { certPem: string; keyPem: string };
  /** A client certificate from a different CA: the fake refuses it. */
  stranger: { certPem: string; keyPem: string };
  /** The PEMs written to files, as the SWISH_* settings name them. */
  files: { ca: string; cert: string; key: string; serverCert: string; strangerCert: string; strangerKey: string };
}

const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
x509.cryptoProvider.set(webcrypto as unknown as Crypto);

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

function serial(): string {
  return Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString('hex').replace(/^[89a-f]/, '1');
}

async function makeCa(name: string) {
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 24 * 3600_000),
    keys,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  return { keys, cert };
}

async function issue(ca: Awaited<ReturnType<typeof makeCa>>, subject: string, usage: 'server' | 'client', opts: { notAfter?: Date } = {}) {
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    new x509.ExtendedKeyUsageExtension([usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
  ];
  if (usage === 'server') {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
      ]),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${subject}`,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: opts.notAfter ?? new Date(Date.now() + 24 * 3600_000),
    signingKey: ca.keys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: alg,
    extensions,
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

let cached: Promise<TestPki> | undefined;

/** One set per test process (making keys takes a moment). */
export function testPki(): Promise<TestPki> {
  cached ??= (async () => {
    const ca = await makeCa('Greetie Test Swish Root CA');
    const server = await issue(ca, 'localhost', 'server');
    const client = await issue(ca, '1231181189', 'client');
    const other = await makeCa('Someone Else CA');
    const stranger = await issue(other, '1231181189', 'client');
    const dir = mkdtempSync(path.join(tmpdir(), 'greetie-swish-pki-'));
    const file = (name: string, text: string) => {
      const p = path.join(dir, name);
      writeFileSync(p, text, { mode: 0o600 });
      return p;
    };
    const caPem = ca.cert.toString('pem');
    return {
      caPem,
      server,
      client,
      stranger,
      files: {
        ca: file('swish-root.pem', caPem),
        cert: file('merchant.pem', client.certPem),
        key: file('merchant.key', client.keyPem),
        serverCert: file('server.pem', server.certPem),
        strangerCert: file('stranger.pem', stranger.certPem),
        strangerKey: file('stranger.key', stranger.keyPem),
      },
    };
  })();
  return cached;
}

/** A certificate already past its end date, signed by a fresh CA (for the settings tests). */
export async function expiredClient(): Promise<{ certPem: string; keyPem: string }> {
  const ca = await makeCa('Expired Test CA');
  return issue(ca, '1231181189', 'client', { notAfter: new Date(Date.now() - 1000) });
}

/** The settings for PAYMENT_PROVIDER=swish with this test PKI (for tests that run with SANDBOX=off). */
export async function swishTestEnv(): Promise<Record<string, string>> {
  const pki = await testPki();
  return {
    PUBLIC_URL: 'https://greetie.test',
    SWISH_PAYEE_ALIAS: '1231181189',
    SWISH_CERT: pki.files.cert,
    SWISH_KEY: pki.files.key,
    SWISH_CA: pki.files.ca,
  };
}
