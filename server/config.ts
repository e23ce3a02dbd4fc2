import { X509Certificate, createECDH, createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Duration } from 'luxon';
import { dataDirFrom } from './db/datadir.ts';
import type { S3Options } from './providers/storage/s3.ts';
import { DEFAULT_WEBPUSH_HOSTS, HOST_PATTERN, type AllowedHosts } from './providers/push/endpoint.ts';

/**
 * Settings come from the environment and are validated once at start. Every problem is reported
 * as one line that names the variable, then the process exits (see server/main.ts).
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** External PostgreSQL; when undefined the embedded server under dataDir is used. */
  databaseUrl: string | undefined;
  /**
   * Connections in this process's pool (DATABASE_POOL_SIZE, 10; 1–200). The catalogue listener
   * holds one more of its own (LISTEN), so a process opens at most this + 1.
   */
  databasePoolSize: number;
  /** Sandbox adapters (SMS outbox, payment simulator…) and /api/sandbox. */
  sandbox: boolean;
  /** The address users reach the app at, used in links we send (SMS) and for HSTS. */
  publicUrl: string;
  /** HMAC key for access tokens. Never logged. */
  tokenSigningKey: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Directory with the built SPA (index.html and assets/). */
  staticDir: string;
  /**
   * Which proxies may tell us the client's address (X-Forwarded-For): false (default: the server
   * faces clients directly, so the header is ignored and cannot dodge per-IP limits), a number of
   * hops, or a comma-separated list of proxy addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /**
   * The SPA's analytics measurement id (VITE_ANALYTICS_ID, read by the build from the same
   * environment). Only when set does the CSP allow the analytics origins.
   */
  analyticsId: string | undefined;
  sms: {
    provider: 'sandbox' | '46elks';
    elksUsername: string | undefined;
    elksPassword: string | undefined;
    elksSender: string;
    elksBaseUrl: string;
  };
  /** Media bytes: a folder (DATA_DIR/media) or an S3-compatible bucket (server/providers/storage). */
  storage: { provider: 'local'; dir: string } | { provider: 's3'; s3: S3Options };
  /** Photos decoded at once by this process (MEDIA_DECODE_CONCURRENCY, 2; 1–16): server/media/photo.ts, decision 072. */
  mediaDecodeConcurrency: number;
  /** Payments: the sandbox provider or Swish's Commerce API (server/providers/payment, decision 080). */
  payment: {
    provider: 'sandbox' | 'swish';
    /** Read and checked at start when the provider is swish; empty strings otherwise. Never logged. */
    swish: { baseUrl: string; payeeAlias: string; cert: string; key: string; passphrase: string | undefined; ca: string };
  };
  /** Delivering scheduled greeties by SMS and the sending limits (server/delivery, decision 081). */
  delivery: DeliveryConfig;
  /**
   * UNCLAIMED_REFUND_AFTER: an ISO-8601 duration (default P60D) after delivery at which a paid
   * greetie still unopened, with no voucher used, is cancelled and refunded (server/payment/refunds.ts,
   * decision 086); null when `off`.
   */
  unclaimedRefundAfter: string | null;
  /**
   * Who sells (the terms, the privacy policy and the receipt name them; GET /api/seller):
   * SELLER_NAME, SELLER_ORG_NUMBER (NNNNNN-NNNN), SELLER_EMAIL. Demo values by default.
   */
  seller: { name: string; orgNumber: string; email: string };
  /**
   * Push (server/providers/push, decisions 092 and 095): PUSH_PROVIDER, EXPO_ACCESS_TOKEN,
   * EXPO_BASE_URL, VAPID_SUBJECT, VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, WEBPUSH_ALLOWED_HOSTS.
   */
  push: PushConfig;
}

export interface PushConfig {
  /** sandbox (the outbox; default while the sandbox is on) or expo (the Expo push service). */
  provider: 'sandbox' | 'expo';
  /** Expo's access token when the project requires one (never logged). */
  expoAccessToken: string | undefined;
  /** Another address for the Expo push API (a fake in tests); Expo's own when undefined. */
  expoBaseUrl: string | undefined;
  /** Web Push's VAPID contact (mailto: or https:); the seller's e-mail by default. */
  vapidSubject: string;
  /**
   * The VAPID key pair from VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (both or neither, checked to be a
   * P-256 pair); undefined: the pair kept in the database (decision 095). The private key is never logged.
   */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** WEBPUSH_ALLOWED_HOSTS: the push services' hosts Web Push posts to (`*`: any public host). */
  webpushAllowedHosts: AllowedHosts;
}

export interface DeliveryConfig {
  /** Run the delivery worker in this process (DELIVERY_WORKER, on by default). */
  worker: boolean;
  /** Greeties a sender may have scheduled or delivered in 24 hours (SEND_LIMIT_PER_DAY, 20). */
  limitPerDay: number;
  /** Of those, to one recipient number (SEND_LIMIT_PER_RECIPIENT, 3). */
  limitPerRecipient: number;
  /** How often an idle worker looks for due deliveries (DELIVERY_POLL_MS, 1000; at least 500). */
  pollMs: number;
  /** SMS attempts before a greetie is deliveryFailed (DELIVERY_ATTEMPTS, 5). */
  attempts: number;
  /** The wait after the first failed attempt, doubled after each (DELIVERY_RETRY_MS, 30000). */
  retryMs: number;
  /** How often rows left in `sending` and overdue deliveries are looked for (DELIVERY_RECONCILE_MS, 30000). */
  reconcileMs: number;
  /**
   * How long a row may stay in `sending` before the sweep takes its worker for dead and asks the
   * SMS provider what became of it (DELIVERY_LEASE_MS, 30000; at least 15000, so it is longer than
   * the slowest send: 46elks's 3 attempts of 3 s with their backoff take about 10 s).
   */
  leaseMs: number;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

type Env = Record<string, string | undefined>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Pure validation of the environment. The token-signing key may be left out here; see
 * `resolveTokenSigningKey` for the generated, kept-on-disk default.
 */
export function parseConfig(env: Env, defaults: { cwd?: string } = {}): ConfigResult {
  const errors: string[] = [];
  const cwd = defaults.cwd ?? process.cwd();

  let port = 3000;
  if (env.PORT !== undefined && env.PORT !== '') {
    const n = Number(env.PORT);
    if (!Number.isInteger(n) || n < 0 || n > 65535) errors.push(`PORT must be a whole number from 0 to 65535 (got "${env.PORT}")`);
    else port = n;
  }

  const host = env.HOST && env.HOST !== '' ? env.HOST : '0.0.0.0';
  const dataDir = dataDirFrom(env, cwd);

  let databaseUrl: string | undefined;
  if (env.DATABASE_URL !== undefined && env.DATABASE_URL !== '') {
    try {
      const u = new URL(env.DATABASE_URL);
      if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new Error('protocol');
      databaseUrl = env.DATABASE_URL;
    } catch {
      errors.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
    }
  }

  let databasePoolSize = 10;
  if (env.DATABASE_POOL_SIZE !== undefined && env.DATABASE_POOL_SIZE !== '') {
    const n = Number(env.DATABASE_POOL_SIZE);
    if (!Number.isInteger(n) || n < 1 || n > 200) errors.push(`DATABASE_POOL_SIZE must be a whole number from 1 to 200 (got "${env.DATABASE_POOL_SIZE}")`);
    else databasePoolSize = n;
  }

  let sandbox = true;
  if (env.SANDBOX !== undefined && env.SANDBOX !== '') {
    const v = env.SANDBOX.toLowerCase();
    if (['off', 'false', '0', 'no'].includes(v)) sandbox = false;
    else if (['on', 'true', '1', 'yes'].includes(v)) sandbox = true;
    else errors.push(`SANDBOX must be "on" or "off" (got "${env.SANDBOX}")`);
  }

  let publicUrl = `http://localhost:${port}`;
  if (env.PUBLIC_URL !== undefined && env.PUBLIC_URL !== '') {
    if (!isHttpUrl(env.PUBLIC_URL)) errors.push('PUBLIC_URL must be an http:// or https:// URL');
    else publicUrl = env.PUBLIC_URL.replace(/\/+$/, '');
  }

  let tokenSigningKey = '';
  if (env.TOKEN_SIGNING_KEY !== undefined && env.TOKEN_SIGNING_KEY !== '') {
    if (env.TOKEN_SIGNING_KEY.length < 32) errors.push('TOKEN_SIGNING_KEY must be at least 32 characters');
    else tokenSigningKey = env.TOKEN_SIGNING_KEY;
  }

  // In production the defaults are wrong as soon as there is more than one process: a key
  // generated per DATA_DIR makes one process's tokens 401 on another, and the default address
  // (localhost and this process's port) goes out in SMS links and payment callbacks. So both are
  // asked for explicitly (README, "Running on several servers").
  if (!sandbox) {
    if (env.TOKEN_SIGNING_KEY === undefined || env.TOKEN_SIGNING_KEY === '') {
      errors.push('TOKEN_SIGNING_KEY must be set when SANDBOX=off (at least 32 characters, the same on every server process)');
    }
    if (env.PUBLIC_URL === undefined || env.PUBLIC_URL === '') {
      errors.push('PUBLIC_URL must be set when SANDBOX=off (the address people reach the app at, the same on every server process)');
    }
  }

  let logLevel: Config['logLevel'] = 'info';
  if (env.LOG_LEVEL !== undefined && env.LOG_LEVEL !== '') {
    if ((LOG_LEVELS as readonly string[]).includes(env.LOG_LEVEL)) logLevel = env.LOG_LEVEL as Config['logLevel'];
    else errors.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }

  let smsProvider: Config['sms']['provider'] = sandbox ? 'sandbox' : '46elks';
  if (env.SMS_PROVIDER !== undefined && env.SMS_PROVIDER !== '') {
    if (env.SMS_PROVIDER === 'sandbox' || env.SMS_PROVIDER === '46elks') smsProvider = env.SMS_PROVIDER;
    else errors.push(`SMS_PROVIDER must be "sandbox" or "46elks" (got "${env.SMS_PROVIDER}")`);
  }
  if (smsProvider === 'sandbox' && !sandbox) errors.push('SMS_PROVIDER=sandbox needs SANDBOX on');
  if (smsProvider === '46elks' && (!env.ELKS_USERNAME || !env.ELKS_PASSWORD)) {
    errors.push('ELKS_USERNAME and ELKS_PASSWORD are needed when SMS goes through 46elks (SANDBOX=off or SMS_PROVIDER=46elks)');
  }
  const elksBaseUrl = env.ELKS_BASE_URL && env.ELKS_BASE_URL !== '' ? env.ELKS_BASE_URL : 'https://api.46elks.com';
  if (!isHttpUrl(elksBaseUrl)) errors.push('ELKS_BASE_URL must be an http:// or https:// URL');
  const elksSender = env.ELKS_SENDER && env.ELKS_SENDER !== '' ? env.ELKS_SENDER : 'Greetie';
  if (!/^[A-Za-z][A-Za-z0-9]{2,10}$/.test(elksSender) && !/^\+[1-9]\d{6,14}$/.test(elksSender)) {
    errors.push('ELKS_SENDER must be 3–11 letters and digits starting with a letter, or a number in E.164 form');
  }

  let trustProxy: Config['trustProxy'] = false;
  if (env.TRUST_PROXY !== undefined && env.TRUST_PROXY !== '') {
    const v = env.TRUST_PROXY.trim();
    if (['false', 'off', '0', 'no'].includes(v.toLowerCase())) trustProxy = false;
    else if (['true', 'on', 'yes'].includes(v.toLowerCase())) trustProxy = true;
    else if (/^[1-9]\d?$/.test(v)) trustProxy = Number(v);
    else if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(v)) trustProxy = v;
    else errors.push('TRUST_PROXY must be off, on, a number of proxy hops, or a comma-separated list of proxy addresses');
  }

  const staticDir = path.resolve(cwd, env.STATIC_DIR && env.STATIC_DIR !== '' ? env.STATIC_DIR : 'dist');

  const storage = parseStorage(env, dataDir, errors);
  let mediaDecodeConcurrency = 2;
  if (env.MEDIA_DECODE_CONCURRENCY !== undefined && env.MEDIA_DECODE_CONCURRENCY !== '') {
    const n = Number(env.MEDIA_DECODE_CONCURRENCY);
    if (!Number.isInteger(n) || n < 1 || n > 16) errors.push(`MEDIA_DECODE_CONCURRENCY must be a whole number from 1 to 16 (got "${env.MEDIA_DECODE_CONCURRENCY}")`);
    else mediaDecodeConcurrency = n;
  }
  const payment = parsePayment(env, { sandbox, publicUrl, cwd }, errors);
  const delivery = parseDelivery(env, errors);
  const unclaimedRefundAfter = parseIsoDuration(env, 'UNCLAIMED_REFUND_AFTER', 'P60D', errors);
  const seller = parseSeller(env, errors);
  const push = parsePush(env, { sandbox, email: seller.email }, errors);

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      port,
      host,
      dataDir,
      databaseUrl,
      databasePoolSize,
      sandbox,
      publicUrl,
      tokenSigningKey,
      logLevel,
      staticDir,
      trustProxy,
      analyticsId: env.VITE_ANALYTICS_ID?.trim() || undefined,
      sms: {
        provider: smsProvider,
        elksUsername: env.ELKS_USERNAME,
        elksPassword: env.ELKS_PASSWORD,
        elksSender,
        elksBaseUrl: elksBaseUrl.replace(/\/+$/, ''),
      },
      storage,
      mediaDecodeConcurrency,
      payment,
      delivery,
      unclaimedRefundAfter,
      seller,
      push,
    },
  };
}

/**
 * A setting that is an ISO-8601 duration (P60D, PT12H, P1M…; luxon reads it), or `off`: the
 * duration as written (normalised by luxon), or null for off. Zero and negative durations are refused.
 */
function parseIsoDuration(env: Env, name: string, fallback: string, errors: string[]): string | null {
  const v = env[name]?.trim();
  if (v === undefined || v === '') return fallback;
  if (v.toLowerCase() === 'off') return null;
  const d = Duration.fromISO(v);
  if (!d.isValid || !(d.toMillis() > 0)) {
    errors.push(`${name} must be an ISO-8601 duration such as P60D, or off (got "${v}")`);
    return fallback;
  }
  return d.toISO();
}

/** DELIVERY_* and SEND_LIMIT_* settings (server/delivery); each problem is one line in `errors`. */
function parseDelivery(env: Env, errors: string[]): DeliveryConfig {
  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      errors.push(`${name} must be a whole number from ${min} to ${max} (got "${v}")`);
      return fallback;
    }
    return n;
  };
  let worker = true;
  if (env.DELIVERY_WORKER !== undefined && env.DELIVERY_WORKER !== '') {
    const v = env.DELIVERY_WORKER.toLowerCase();
    if (['off', 'false', '0', 'no'].includes(v)) worker = false;
    else if (!['on', 'true', '1', 'yes'].includes(v)) errors.push(`DELIVERY_WORKER must be "on" or "off" (got "${env.DELIVERY_WORKER}")`);
  }
  return {
    worker,
    limitPerDay: whole('SEND_LIMIT_PER_DAY', 20, 1, 100_000),
    limitPerRecipient: whole('SEND_LIMIT_PER_RECIPIENT', 3, 1, 100_000),
    pollMs: whole('DELIVERY_POLL_MS', 1000, 500, 60_000),
    attempts: whole('DELIVERY_ATTEMPTS', 5, 1, 20),
    retryMs: whole('DELIVERY_RETRY_MS', 30_000, 100, 3_600_000),
    reconcileMs: whole('DELIVERY_RECONCILE_MS', 30_000, 200, 3_600_000),
    leaseMs: whole('DELIVERY_LEASE_MS', 30_000, 15_000, 3_600_000),
  };
}

export const SWISH_PRODUCTION_URL = 'https://cpc.getswish.net/swish-cpcapi';

/**
 * PAYMENT_PROVIDER and the SWISH_* settings; each problem is one line in `errors`. For Swish the
 * certificate files are read and checked here, so a wrong file stops the start instead of the
 * first payment: the client certificate and its key (PEM, the key may be encrypted with
 * SWISH_KEY_PASSPHRASE) must belong together and be valid now, the CA file must hold the
 * certificate(s) Swish's server is checked against, and callbacks need PUBLIC_URL on HTTPS port 443.
 */
function parsePayment(env: Env, at: { sandbox: boolean; publicUrl: string; cwd: string }, errors: string[]): Config['payment'] {
  let provider: Config['payment']['provider'] = at.sandbox ? 'sandbox' : 'swish';
  if (env.PAYMENT_PROVIDER !== undefined && env.PAYMENT_PROVIDER !== '') {
    if (env.PAYMENT_PROVIDER === 'sandbox' || env.PAYMENT_PROVIDER === 'swish') provider = env.PAYMENT_PROVIDER;
    else errors.push(`PAYMENT_PROVIDER must be "sandbox" or "swish" (got "${env.PAYMENT_PROVIDER}")`);
  }
  const swish: Config['payment']['swish'] = { baseUrl: SWISH_PRODUCTION_URL, payeeAlias: env.SWISH_PAYEE_ALIAS ?? '', cert: '', key: '', passphrase: undefined, ca: '' };
  if (provider === 'sandbox') {
    if (!at.sandbox) errors.push('PAYMENT_PROVIDER=sandbox needs SANDBOX on');
    return { provider, swish };
  }

  const when = '(SANDBOX=off or PAYMENT_PROVIDER=swish)';
  if (env.SWISH_BASE_URL !== undefined && env.SWISH_BASE_URL !== '') {
    let ok = false;
    try {
      ok = new URL(env.SWISH_BASE_URL).protocol === 'https:';
    } catch {
      ok = false;
    }
    if (ok) swish.baseUrl = env.SWISH_BASE_URL.replace(/\/+$/, '');
    else errors.push('SWISH_BASE_URL must be an https:// URL (Swish production or MSS, its test environment)');
  }
  if (!/^123\d{7}$/.test(swish.payeeAlias)) errors.push(`SWISH_PAYEE_ALIAS must be the merchant's Swish number, 10 digits starting 123 ${when}`);

  const publicUrl = new URL(at.publicUrl);
  if (publicUrl.protocol !== 'https:' || (publicUrl.port !== '' && publicUrl.port !== '443')) {
    errors.push(`PUBLIC_URL must be https:// on port 443 when payments go through Swish: Swish only calls back there (got "${at.publicUrl}")`);
  }

  const read = (name: 'SWISH_CERT' | 'SWISH_KEY' | 'SWISH_CA', what: string): string | undefined => {
    const file = env[name];
    if (file === undefined || file === '') {
      errors.push(`${name} must name the ${what} file (PEM) ${when}`);
      return undefined;
    }
    try {
      return readFileSync(path.resolve(at.cwd, file), 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      errors.push(`${name}: cannot read "${file}" (${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable')})`);
      return undefined;
    }
  };
  const certText = read('SWISH_CERT', 'client certificate');
  const keyText = read('SWISH_KEY', 'client certificate\'s private key');
  const caText = read('SWISH_CA', 'Swish server CA certificate');
  swish.passphrase = env.SWISH_KEY_PASSPHRASE || undefined;

  let cert: X509Certificate | undefined;
  if (certText !== undefined) {
    try {
      cert = new X509Certificate(certText);
      const now = Date.now();
      if (Date.parse(cert.validTo) <= now) errors.push(`SWISH_CERT: the certificate expired on ${cert.validTo}`);
      else if (Date.parse(cert.validFrom) > now) errors.push(`SWISH_CERT: the certificate is not valid before ${cert.validFrom}`);
      swish.cert = certText;
    } catch {
      errors.push('SWISH_CERT does not hold a PEM certificate ("-----BEGIN CERTIFICATE-----"; convert a .p12 with openssl pkcs12)');
    }
  }
  let key: KeyObject | undefined;
  if (keyText !== undefined) {
    try {
      key = createPrivateKey({ key: keyText, format: 'pem', passphrase: swish.passphrase });
      swish.key = keyText;
    } catch {
      errors.push(
        swish.passphrase === undefined && /ENCRYPTED/.test(keyText)
          ? 'SWISH_KEY is encrypted: set SWISH_KEY_PASSPHRASE'
          : 'SWISH_KEY does not hold a PEM private key that opens (with SWISH_KEY_PASSPHRASE when it is encrypted)',
      );
    }
  }
  if (cert && key && !cert.checkPrivateKey(key)) errors.push('SWISH_KEY is not the private key of the certificate in SWISH_CERT');
  if (caText !== undefined) {
    try {
      new X509Certificate(caText);
      swish.ca = caText;
    } catch {
      errors.push('SWISH_CA does not hold a PEM certificate (Swish\'s root CA for its server)');
    }
  }
  return { provider, swish };
}

/** PUSH_PROVIDER, EXPO_* and VAPID_SUBJECT (server/providers/push); each problem is one line in `errors`. */
function parsePush(env: Env, at: { sandbox: boolean; email: string }, errors: string[]): PushConfig {
  let provider: PushConfig['provider'] = at.sandbox ? 'sandbox' : 'expo';
  if (env.PUSH_PROVIDER !== undefined && env.PUSH_PROVIDER !== '') {
    if (env.PUSH_PROVIDER === 'sandbox' || env.PUSH_PROVIDER === 'expo') provider = env.PUSH_PROVIDER;
    else errors.push(`PUSH_PROVIDER must be "sandbox" or "expo" (got "${env.PUSH_PROVIDER}")`);
  }
  if (provider === 'sandbox' && !at.sandbox) errors.push('PUSH_PROVIDER=sandbox needs SANDBOX on');
  let expoBaseUrl: string | undefined;
  if (env.EXPO_BASE_URL !== undefined && env.EXPO_BASE_URL !== '') {
    if (isHttpUrl(env.EXPO_BASE_URL)) expoBaseUrl = env.EXPO_BASE_URL.replace(/\/+$/, '');
    else errors.push('EXPO_BASE_URL must be an http:// or https:// URL');
  }
  const vapidSubject = env.VAPID_SUBJECT?.trim() || `mailto:${at.email}`;
  if (!/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(vapidSubject)) errors.push('VAPID_SUBJECT must be a mailto: address or an https:// URL');
  return {
    provider,
    expoAccessToken: env.EXPO_ACCESS_TOKEN || undefined,
    expoBaseUrl,
    vapidSubject,
    vapidKeys: parseVapidKeys(env, errors),
    webpushAllowedHosts: parseAllowedHosts(env, errors),
  };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither; base64url as `npx web-push
 * generate-vapid-keys` prints them (an uncompressed P-256 point of 65 bytes, a 32-byte scalar),
 * and the public key must be the private key's.
 */
function parseVapidKeys(env: Env, errors: string[]): PushConfig['vapidKeys'] {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? '';
  if (publicKey === '' && privateKey === '') return undefined;
  if (publicKey === '' || privateKey === '') {
    errors.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither to keep a generated pair in the database');
    return undefined;
  }
  const b64url = /^[A-Za-z0-9_-]+$/;
  const pub = b64url.test(publicKey) ? Buffer.from(publicKey, 'base64url') : Buffer.alloc(0);
  const priv = b64url.test(privateKey) ? Buffer.from(privateKey, 'base64url') : Buffer.alloc(0);
  if (pub.length !== 65 || pub[0] !== 4) {
    errors.push('VAPID_PUBLIC_KEY must be a P-256 public key in base64url (65 bytes, as `npx web-push generate-vapid-keys` prints it)');
    return undefined;
  }
  if (priv.length !== 32) {
    errors.push('VAPID_PRIVATE_KEY must be a P-256 private key in base64url (32 bytes, as `npx web-push generate-vapid-keys` prints it)');
    return undefined;
  }
  let derived: Buffer | undefined;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(priv);
    derived = ecdh.getPublicKey();
  } catch {
    derived = undefined;
  }
  if (!derived?.equals(pub)) {
    errors.push('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY');
    return undefined;
  }
  return { publicKey, privateKey };
}

/** WEBPUSH_ALLOWED_HOSTS: `*`, or comma-separated host names (`*.` in front for any sub-domain). */
function parseAllowedHosts(env: Env, errors: string[]): AllowedHosts {
  const v = env.WEBPUSH_ALLOWED_HOSTS?.trim() ?? '';
  if (v === '') return DEFAULT_WEBPUSH_HOSTS;
  if (v === '*') return '*';
  const hosts = v.split(',').map((h) => h.trim().toLowerCase().replace(/\.$/, ''));
  const bad = hosts.filter((h) => !HOST_PATTERN.test(h));
  if (bad.length > 0) {
    errors.push(`WEBPUSH_ALLOWED_HOSTS must be "*" or comma-separated host names such as fcm.googleapis.com or *.notify.windows.com (not "${bad.join('", "')}")`);
    return DEFAULT_WEBPUSH_HOSTS;
  }
  return hosts;
}

/** SELLER_* settings: the company that sells the vouchers, as the terms and the receipt name it. */
function parseSeller(env: Env, errors: string[]): Config['seller'] {
  const name = env.SELLER_NAME?.trim() || 'Greetie AB';
  if (name.length > 100) errors.push('SELLER_NAME must be at most 100 characters');
  const orgNumber = env.SELLER_ORG_NUMBER?.trim() || '559999-9999';
  if (!/^\d{6}-\d{4}$/.test(orgNumber)) errors.push(`SELLER_ORG_NUMBER must be a Swedish organisation number like 556677-8899 (got "${orgNumber}")`);
  const email = env.SELLER_EMAIL?.trim() || 'kundservice@greetie.example';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.push(`SELLER_EMAIL must be an e-mail address (got "${email}")`);
  return { name, orgNumber, email };
}

/** MEDIA_STORAGE and the S3_* settings; each problem is one line in `errors`. */
function parseStorage(env: Env, dataDir: string, errors: string[]): Config['storage'] {
  const local: Config['storage'] = { provider: 'local', dir: path.join(dataDir, 'media') };
  const provider = env.MEDIA_STORAGE && env.MEDIA_STORAGE !== '' ? env.MEDIA_STORAGE : 'local';
  if (provider === 'local') return local;
  if (provider !== 's3') {
    errors.push(`MEDIA_STORAGE must be "local" or "s3" (got "${provider}")`);
    return local;
  }
  const bucket = env.S3_BUCKET ?? '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) errors.push('S3_BUCKET must name a bucket (3–63 lower-case letters, digits, dots and hyphens) when MEDIA_STORAGE=s3');
  const region = env.S3_REGION && env.S3_REGION !== '' ? env.S3_REGION : 'us-east-1';
  if (!/^[a-z0-9-]{2,40}$/.test(region)) errors.push(`S3_REGION must be a region name such as eu-north-1 (got "${region}")`);
  let endpoint: string | undefined;
  if (env.S3_ENDPOINT !== undefined && env.S3_ENDPOINT !== '') {
    if (!isHttpUrl(env.S3_ENDPOINT)) errors.push('S3_ENDPOINT must be an http:// or https:// URL');
    else endpoint = env.S3_ENDPOINT.replace(/\/+$/, '');
  }
  // Path-style by default for an S3-compatible endpoint (MinIO and most others), virtual-hosted on AWS.
  let forcePathStyle = endpoint !== undefined;
  if (env.S3_FORCE_PATH_STYLE !== undefined && env.S3_FORCE_PATH_STYLE !== '') {
    const v = env.S3_FORCE_PATH_STYLE.toLowerCase();
    if (['on', 'true', '1', 'yes'].includes(v)) forcePathStyle = true;
    else if (['off', 'false', '0', 'no'].includes(v)) forcePathStyle = false;
    else errors.push(`S3_FORCE_PATH_STYLE must be "on" or "off" (got "${env.S3_FORCE_PATH_STYLE}")`);
  }
  const prefix = env.S3_PREFIX ?? '';
  if (prefix !== '' && !/^[A-Za-z0-9!_.*'()/-]{1,200}\/$/.test(prefix)) errors.push('S3_PREFIX must be a folder-like key prefix ending in "/" (letters, digits, !_.*\'()-/)');
  const id = env.S3_ACCESS_KEY_ID ?? '';
  const secret = env.S3_SECRET_ACCESS_KEY ?? '';
  if ((id === '') !== (secret === '')) errors.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK\'s default credentials');
  return {
    provider: 's3',
    s3: { bucket, region, endpoint, forcePathStyle, prefix, credentials: id && secret ? { accessKeyId: id, secretAccessKey: secret } : undefined },
  };
}

/**
 * When TOKEN_SIGNING_KEY is not given, a random key is generated once and kept in
 * DATA_DIR/token-signing.key (mode 0600), so tokens survive a restart.
 */
export function resolveTokenSigningKey(config: Config): Config {
  if (config.tokenSigningKey) return config;
  const file = path.join(config.dataDir, 'token-signing.key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    if (key.length >= 32) return { ...config, tokenSigningKey: key };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return { ...config, tokenSigningKey: key };
}
