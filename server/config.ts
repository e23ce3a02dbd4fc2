import { X509Certificate, createECDH, createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { dataDirFrom } from './db/datadir.ts';
import { Problem, custom, durationList, durationOrOff, flag, httpUrl, matching, oneOf, settingsReader, text, whole, type Env, type IsoDuration } from './settings.ts';
export type { IsoDuration } from './settings.ts';
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
   * Connections in this process's pool (DATABASE_POOL_SIZE, 10; 1–200). The catalogue cache and
   * the payment events share one more (server/db/listener.ts, LISTEN), so a process opens at most this + 1.
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
  unclaimedRefundAfter: IsoDuration | null;
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
  /**
   * The reminder SMS to a recipient who has not opened a delivered greetie, each this long after
   * delivery, shortest first (UNOPENED_REMINDERS, ISO-8601 durations, "P3D,P10D"; "off": none).
   */
  unopenedReminders: IsoDuration[];
  /** The sender's notification that it is still unopened (UNOPENED_NOTICE, "P14D"; "off": none). */
  unopenedNotice: IsoDuration | null;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

export const SWISH_PRODUCTION_URL = 'https://cpc.getswish.net/swish-cpcapi';

const VAPID_SUBJECT = /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * Every setting the server reads, declared once (server/settings.ts, decision 026): description,
 * default and parse. `parseConfig` below reads them and adds the rules between settings. The
 * README's settings table lists the same names (tests/server/foundation/settings.test.ts).
 */
export const SETTINGS = {
  PORT: whole({ min: 0, max: 65535, default: 3000, description: 'port for the app and /api' }),
  HOST: text({ default: '0.0.0.0', description: 'interface to listen on' }),
  DATA_DIR: text({ shown: './data', description: 'embedded database, the generated token-signing key' }),
  STATIC_DIR: text({ shown: './dist', description: 'the built SPA (index.html and assets/)' }),
  DATABASE_URL: custom<string>(Type.String({ format: 'uri', description: 'an external PostgreSQL instead of the embedded one' }), {
    description: 'an external PostgreSQL instead of the embedded one',
  }, (raw) => {
    try {
      const u = new URL(raw);
      if (u.protocol === 'postgres:' || u.protocol === 'postgresql:') return raw;
    } catch {
      // not a URL at all: the same line
    }
    return new Problem('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }),
  DATABASE_POOL_SIZE: whole({ min: 1, max: 200, default: 10, description: "database connections this process's pool may open" }),
  SANDBOX: flag({ default: true, description: '`off` turns every sandbox adapter and /api/sandbox off' }),
  PUBLIC_URL: httpUrl({ shown: 'http://localhost:PORT', description: 'the address users reach' }),
  TOKEN_SIGNING_KEY: custom<string>(Type.String({ minLength: 32, description: 'key that signs access tokens' }), {
    shown: 'generated in DATA_DIR',
    description: 'key that signs access tokens (at least 32 characters)',
  }, (raw) => (raw.length < 32 ? new Problem('TOKEN_SIGNING_KEY must be at least 32 characters') : raw)),
  LOG_LEVEL: oneOf(LOG_LEVELS, { default: 'info', description: 'the lowest level logged' }),
  TRUST_PROXY: custom<boolean | number | string>(Type.Union([Type.Boolean(), Type.Integer({ minimum: 1, maximum: 99 }), Type.String()]), {
    shown: 'off',
    description: 'which proxies may tell us the client address (X-Forwarded-For)',
  }, (raw) => {
    const v = raw.trim();
    if (['false', 'off', '0', 'no'].includes(v.toLowerCase())) return false;
    if (['true', 'on', 'yes'].includes(v.toLowerCase())) return true;
    if (/^[1-9]\d?$/.test(v)) return Number(v);
    if (/^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/.test(v)) return v;
    return new Problem('TRUST_PROXY must be off, on, a number of proxy hops, or a comma-separated list of proxy addresses');
  }),
  VITE_ANALYTICS_ID: text({ trim: true, description: "the SPA's analytics measurement id; the CSP allows the analytics origins only when set" }),
  SMS_PROVIDER: oneOf(['sandbox', '46elks'], { shown: 'sandbox (46elks when SANDBOX=off)', description: 'where SMS go' }),
  ELKS_USERNAME: text({ description: '46elks API user name' }),
  ELKS_PASSWORD: text({ description: '46elks API password' }),
  ELKS_SENDER: matching({
    default: 'Greetie',
    pattern: /^(?:[A-Za-z][A-Za-z0-9]{2,10}|\+[1-9]\d{6,14})$/,
    problem: () => 'ELKS_SENDER must be 3–11 letters and digits starting with a letter, or a number in E.164 form',
    description: 'the SMS sender name or number',
  }),
  ELKS_BASE_URL: httpUrl({ default: 'https://api.46elks.com', description: "46elks's API" }),
  MEDIA_STORAGE: oneOf(['local', 's3'], { default: 'local', description: 'where uploaded photos and videos live' }),
  S3_BUCKET: text({ description: 'the bucket, when MEDIA_STORAGE=s3' }),
  S3_REGION: matching({
    default: 'us-east-1',
    pattern: /^[a-z0-9-]{2,40}$/,
    problem: (raw) => `S3_REGION must be a region name such as eu-north-1 (got "${raw}")`,
    description: "the bucket's region",
  }),
  S3_ENDPOINT: httpUrl({ shown: '— (AWS)', description: "an S3-compatible service's URL" }),
  S3_FORCE_PATH_STYLE: flag({ shown: 'on with S3_ENDPOINT, else off', description: 'address objects as endpoint/bucket/key' }),
  S3_PREFIX: matching({
    pattern: /^[A-Za-z0-9!_.*'()/-]{1,200}\/$/,
    problem: () => 'S3_PREFIX must be a folder-like key prefix ending in "/" (letters, digits, !_.*\'()-/)',
    description: 'a key prefix ending in `/`',
  }),
  S3_ACCESS_KEY_ID: text({ description: "the bucket's access key id (with S3_SECRET_ACCESS_KEY)" }),
  S3_SECRET_ACCESS_KEY: text({ description: "the bucket's secret access key (with S3_ACCESS_KEY_ID)" }),
  MEDIA_DECODE_CONCURRENCY: whole({ min: 1, max: 16, default: 2, description: 'photos this process decodes at once' }),
  PAYMENT_PROVIDER: oneOf(['sandbox', 'swish'], { shown: 'sandbox (swish when SANDBOX=off)', description: 'where payments go' }),
  SWISH_PAYEE_ALIAS: text({ description: "the merchant's Swish number" }),
  SWISH_CERT: text({ description: 'file: the client certificate (PEM)' }),
  SWISH_KEY: text({ description: "file: the client certificate's private key (PEM)" }),
  SWISH_KEY_PASSPHRASE: text({ description: "the key's passphrase, when the key file is encrypted" }),
  SWISH_CA: text({ description: "file: the CA certificate(s) Swish's server is checked against (PEM)" }),
  SWISH_BASE_URL: custom<string, string>(Type.String({ format: 'uri', description: "Swish's API", default: SWISH_PRODUCTION_URL }), {
    default: SWISH_PRODUCTION_URL,
    description: "Swish's API",
  }, (raw) => {
    let ok = false;
    try {
      ok = new URL(raw).protocol === 'https:';
    } catch {
      ok = false;
    }
    return ok ? raw.replace(/\/+$/, '') : new Problem('SWISH_BASE_URL must be an https:// URL (Swish production or MSS, its test environment)');
  }),
  SELLER_NAME: custom<string, string>(Type.String({ maxLength: 100, default: 'Greetie AB' }), {
    default: 'Greetie AB',
    trim: true,
    description: 'the company that sells',
  }, (raw) => (raw.length > 100 ? new Problem('SELLER_NAME must be at most 100 characters') : raw)),
  SELLER_ORG_NUMBER: matching({
    default: '559999-9999',
    trim: true,
    pattern: /^\d{6}-\d{4}$/,
    problem: (raw) => `SELLER_ORG_NUMBER must be a Swedish organisation number like 556677-8899 (got "${raw}")`,
    description: "the seller's organisation number",
  }),
  SELLER_EMAIL: matching({
    default: 'kundservice@greetie.example',
    trim: true,
    pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
    problem: (raw) => `SELLER_EMAIL must be an e-mail address (got "${raw}")`,
    description: "the seller's e-mail address",
  }),
  SEND_LIMIT_PER_DAY: whole({ min: 1, max: 100_000, default: 20, description: 'greeties a sender may have scheduled or delivered in 24 hours' }),
  SEND_LIMIT_PER_RECIPIENT: whole({ min: 1, max: 100_000, default: 3, description: 'of those, to one number' }),
  DELIVERY_WORKER: flag({ default: true, description: 'run the delivery worker in this process' }),
  DELIVERY_POLL_MS: whole({ min: 500, max: 60_000, default: 1000, description: 'how often an idle delivery worker looks for due greeties' }),
  DELIVERY_ATTEMPTS: whole({ min: 1, max: 20, default: 5, description: 'SMS attempts before a greetie is deliveryFailed' }),
  DELIVERY_RETRY_MS: whole({ min: 100, max: 3_600_000, default: 30_000, description: 'the wait after the first failed attempt, doubled after each' }),
  DELIVERY_RECONCILE_MS: whole({ min: 200, max: 3_600_000, default: 30_000, description: 'how often interrupted and overdue deliveries are looked for' }),
  DELIVERY_LEASE_MS: whole({ min: 15_000, max: 3_600_000, default: 30_000, description: 'how long a delivery may stay claimed before the sweep asks the SMS provider' }),
  UNOPENED_REMINDERS: durationList({ default: 'P3D,P10D', description: 'when after delivery a recipient who has not opened a greetie gets a reminder SMS' }),
  UNCLAIMED_REFUND_AFTER: durationOrOff({ default: 'P60D', description: 'when after delivery a paid greetie still unopened, with no voucher used, is cancelled and refunded' }),
  UNOPENED_NOTICE: durationOrOff({ default: 'P14D', description: 'when after delivery the sender is told the greetie is still not opened' }),
  PUSH_PROVIDER: oneOf(['sandbox', 'expo'], { shown: 'sandbox (expo when SANDBOX=off)', description: 'where notifications are pushed to the mobile app' }),
  EXPO_ACCESS_TOKEN: text({ description: "Expo's access token" }),
  EXPO_BASE_URL: httpUrl({ shown: "Expo's own", description: "another address for Expo's push API" }),
  VAPID_SUBJECT: matching({
    shown: 'mailto:SELLER_EMAIL',
    trim: true,
    pattern: VAPID_SUBJECT,
    problem: () => 'VAPID_SUBJECT must be a mailto: address or an https:// URL',
    description: 'the contact push services see for Web Push',
  }),
  VAPID_PUBLIC_KEY: text({ trim: true, shown: '— (one pair kept in the database)', description: "Web Push's VAPID public key (base64url)" }),
  VAPID_PRIVATE_KEY: text({ trim: true, shown: '— (one pair kept in the database)', description: "Web Push's VAPID private key (base64url)" }),
  WEBPUSH_ALLOWED_HOSTS: custom<AllowedHosts>(Type.Union([Type.Literal('*'), Type.Array(Type.String())]), {
    trim: true,
    shown: DEFAULT_WEBPUSH_HOSTS.join(', '),
    description: "the push services' hosts a browser's subscription may name",
  }, (raw) => {
    if (raw === '*') return '*';
    const hosts = raw.split(',').map((h) => h.trim().toLowerCase().replace(/\.$/, ''));
    const bad = hosts.filter((h) => !HOST_PATTERN.test(h));
    if (bad.length === 0) return hosts;
    return new Problem(
      `WEBPUSH_ALLOWED_HOSTS must be "*" or comma-separated host names such as fcm.googleapis.com or *.notify.windows.com (not "${bad.join('", "')}")`,
    );
  }),
};

type Read = ReturnType<typeof settingsReader<typeof SETTINGS>>;

/**
 * Pure validation of the environment. The token-signing key may be left out here; see
 * `resolveTokenSigningKey` for the generated, kept-on-disk default.
 */
export function parseConfig(env: Env, defaults: { cwd?: string } = {}): ConfigResult {
  const errors: string[] = [];
  const cwd = defaults.cwd ?? process.cwd();
  const read = settingsReader(SETTINGS, env, errors);

  const port = read('PORT');
  const host = read('HOST');
  const dataDir = dataDirFrom(env, cwd);
  const databaseUrl = read('DATABASE_URL');
  const databasePoolSize = read('DATABASE_POOL_SIZE');
  const sandbox = read('SANDBOX');
  const publicUrl = read('PUBLIC_URL') ?? `http://localhost:${port}`;
  const tokenSigningKey = read('TOKEN_SIGNING_KEY') ?? '';

  // In production the defaults are wrong as soon as there is more than one process: a key
  // generated per DATA_DIR makes one process's tokens 401 on another, and the default address
  // (localhost and this process's port) goes out in SMS links and payment callbacks. So both are
  // asked for explicitly (README, "Running on several servers").
  if (!sandbox) {
    if (!env.TOKEN_SIGNING_KEY) {
      errors.push('TOKEN_SIGNING_KEY must be set when SANDBOX=off (at least 32 characters, the same on every server process)');
    }
    if (!env.PUBLIC_URL) {
      errors.push('PUBLIC_URL must be set when SANDBOX=off (the address people reach the app at, the same on every server process)');
    }
  }

  const logLevel = read('LOG_LEVEL');

  const smsProvider = read('SMS_PROVIDER') ?? (sandbox ? 'sandbox' : '46elks');
  if (smsProvider === 'sandbox' && !sandbox) errors.push('SMS_PROVIDER=sandbox needs SANDBOX on');
  const elksUsername = read('ELKS_USERNAME');
  const elksPassword = read('ELKS_PASSWORD');
  if (smsProvider === '46elks' && (!elksUsername || !elksPassword)) {
    errors.push('ELKS_USERNAME and ELKS_PASSWORD are needed when SMS goes through 46elks (SANDBOX=off or SMS_PROVIDER=46elks)');
  }
  const elksBaseUrl = read('ELKS_BASE_URL');
  const elksSender = read('ELKS_SENDER');

  const trustProxy = read('TRUST_PROXY') ?? false;
  const staticDir = path.resolve(cwd, read('STATIC_DIR') ?? 'dist');

  const storage = parseStorage(read, dataDir, errors);
  const mediaDecodeConcurrency = read('MEDIA_DECODE_CONCURRENCY');
  const payment = parsePayment(read, { sandbox, publicUrl, cwd }, errors);
  const delivery = parseDelivery(read);
  const unclaimedRefundAfter = read('UNCLAIMED_REFUND_AFTER');
  const seller = { name: read('SELLER_NAME'), orgNumber: read('SELLER_ORG_NUMBER'), email: read('SELLER_EMAIL') };
  // VAPID_SUBJECT's default names the seller's e-mail as written, even when it is wrong.
  const push = parsePush(read, { sandbox, email: env.SELLER_EMAIL?.trim() || seller.email, subjectGiven: Boolean(env.VAPID_SUBJECT?.trim()) }, errors);

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
      analyticsId: read('VITE_ANALYTICS_ID'),
      sms: { provider: smsProvider, elksUsername, elksPassword, elksSender, elksBaseUrl },
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

/** DELIVERY_* and SEND_LIMIT_* settings (server/delivery). */
function parseDelivery(read: Read): DeliveryConfig {
  return {
    worker: read('DELIVERY_WORKER'),
    limitPerDay: read('SEND_LIMIT_PER_DAY'),
    limitPerRecipient: read('SEND_LIMIT_PER_RECIPIENT'),
    pollMs: read('DELIVERY_POLL_MS'),
    attempts: read('DELIVERY_ATTEMPTS'),
    retryMs: read('DELIVERY_RETRY_MS'),
    reconcileMs: read('DELIVERY_RECONCILE_MS'),
    leaseMs: read('DELIVERY_LEASE_MS'),
    unopenedReminders: read('UNOPENED_REMINDERS'),
    unopenedNotice: read('UNOPENED_NOTICE'),
  };
}

/**
 * PAYMENT_PROVIDER and the SWISH_* settings; each problem is one line in `errors`. For Swish the
 * certificate files are read and checked here, so a wrong file stops the start instead of the
 * first payment: the client certificate and its key (PEM, the key may be encrypted with
 * SWISH_KEY_PASSPHRASE) must belong together and be valid now, the CA file must hold the
 * certificate(s) Swish's server is checked against, and callbacks need PUBLIC_URL on HTTPS port 443.
 */
function parsePayment(read: Read, at: { sandbox: boolean; publicUrl: string; cwd: string }, errors: string[]): Config['payment'] {
  const provider = read('PAYMENT_PROVIDER') ?? (at.sandbox ? 'sandbox' : 'swish');
  const swish: Config['payment']['swish'] = { baseUrl: SWISH_PRODUCTION_URL, payeeAlias: read('SWISH_PAYEE_ALIAS') ?? '', cert: '', key: '', passphrase: undefined, ca: '' };
  if (provider === 'sandbox') {
    if (!at.sandbox) errors.push('PAYMENT_PROVIDER=sandbox needs SANDBOX on');
    return { provider, swish };
  }

  const when = '(SANDBOX=off or PAYMENT_PROVIDER=swish)';
  swish.baseUrl = read('SWISH_BASE_URL');
  if (!/^123\d{7}$/.test(swish.payeeAlias)) errors.push(`SWISH_PAYEE_ALIAS must be the merchant's Swish number, 10 digits starting 123 ${when}`);

  const publicUrl = new URL(at.publicUrl);
  if (publicUrl.protocol !== 'https:' || (publicUrl.port !== '' && publicUrl.port !== '443')) {
    errors.push(`PUBLIC_URL must be https:// on port 443 when payments go through Swish: Swish only calls back there (got "${at.publicUrl}")`);
  }

  const readFile = (name: 'SWISH_CERT' | 'SWISH_KEY' | 'SWISH_CA', what: string): string | undefined => {
    const file = read(name);
    if (file === undefined) {
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
  const certText = readFile('SWISH_CERT', 'client certificate');
  const keyText = readFile('SWISH_KEY', 'client certificate\'s private key');
  const caText = readFile('SWISH_CA', 'Swish server CA certificate');
  swish.passphrase = read('SWISH_KEY_PASSPHRASE');

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

/** PUSH_PROVIDER, EXPO_* and VAPID_* (server/providers/push); each problem is one line in `errors`. */
function parsePush(read: Read, at: { sandbox: boolean; email: string; subjectGiven: boolean }, errors: string[]): PushConfig {
  const provider = read('PUSH_PROVIDER') ?? (at.sandbox ? 'sandbox' : 'expo');
  if (provider === 'sandbox' && !at.sandbox) errors.push('PUSH_PROVIDER=sandbox needs SANDBOX on');
  const expoBaseUrl = read('EXPO_BASE_URL');
  const given = read('VAPID_SUBJECT');
  const vapidSubject = given ?? `mailto:${at.email}`;
  // The default is checked as well: it is made from SELLER_EMAIL as written, which may be wrong.
  if (!at.subjectGiven && !VAPID_SUBJECT.test(vapidSubject)) errors.push('VAPID_SUBJECT must be a mailto: address or an https:// URL');
  return {
    provider,
    expoAccessToken: read('EXPO_ACCESS_TOKEN'),
    expoBaseUrl,
    vapidSubject,
    vapidKeys: parseVapidKeys(read, errors),
    webpushAllowedHosts: read('WEBPUSH_ALLOWED_HOSTS') ?? DEFAULT_WEBPUSH_HOSTS,
  };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither; base64url as `npx web-push
 * generate-vapid-keys` prints them (an uncompressed P-256 point of 65 bytes, a 32-byte scalar),
 * and the public key must be the private key's.
 */
function parseVapidKeys(read: Read, errors: string[]): PushConfig['vapidKeys'] {
  const publicKey = read('VAPID_PUBLIC_KEY') ?? '';
  const privateKey = read('VAPID_PRIVATE_KEY') ?? '';
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

/** MEDIA_STORAGE and the S3_* settings; each problem is one line in `errors`. */
function parseStorage(read: Read, dataDir: string, errors: string[]): Config['storage'] {
  const local: Config['storage'] = { provider: 'local', dir: path.join(dataDir, 'media') };
  if (read('MEDIA_STORAGE') === 'local') return local;
  const bucket = read('S3_BUCKET') ?? '';
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) errors.push('S3_BUCKET must name a bucket (3–63 lower-case letters, digits, dots and hyphens) when MEDIA_STORAGE=s3');
  const region = read('S3_REGION');
  const endpoint = read('S3_ENDPOINT');
  // Path-style by default for an S3-compatible endpoint (MinIO and most others), virtual-hosted on AWS.
  const forcePathStyle = read('S3_FORCE_PATH_STYLE') ?? endpoint !== undefined;
  const prefix = read('S3_PREFIX') ?? '';
  const id = read('S3_ACCESS_KEY_ID') ?? '';
  const secret = read('S3_SECRET_ACCESS_KEY') ?? '';
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
