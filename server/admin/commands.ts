import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Lang } from '../i18n/index.ts';
import { translate } from '../i18n/index.ts';
import { registerServerMessages } from '../messages.ts';
import { HttpError, type FieldProblem } from '../errors.ts';
import { MERCHANT_CATEGORIES } from '../../contract/merchant.ts';
import {
  createMerchant,
  createProduct,
  deactivateMerchant,
  removeProduct,
  setMerchantCode,
  updateMerchant,
  updateProduct,
} from '../merchant/admin.ts';
import { listAllMerchants } from '../merchant/queries.ts';
import { freeCodes, loadCodes, parseCodes } from '../voucher/codes.ts';
import { addStaff, listStaff, removeStaff } from '../portal/rules.ts';
import { ConnectionError, openDatabase, type OpenDatabase } from './connection.ts';
import { cliText, problemMessage, type CliMessageCode } from './messages.ts';

/**
 * `npm run admin -- merchant add|update|deactivate|set-code|list`, `merchant staff add|remove|list`
 * (who works for a merchant: the merchant portal's owner and staff, by mobile number),
 * `product add|update|remove` and `codes load|count` (a Code product's pool; codes from a file or
 * stdin, never printed: the answer is only how many). Input goes through the same contract schemas and rules as the
 * API (server/merchant/admin.ts); errors are said in Swedish, or English with LANG=en… or
 * --lang en. A merchant code is never printed: set-code answers only "updated".
 */

export const EXIT = { ok: 0, failed: 1, badInput: 2, notFound: 3, conflict: 4, database: 5 } as const;

export interface AdminIo {
  env: Record<string, string | undefined>;
  /** All of stdin as text; undefined when stdin is a terminal (nothing piped). */
  readStdin: () => Promise<string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  /** Tests pass the test database here; the real command opens DATABASE_URL or DATA_DIR. */
  openDb?: (env: Record<string, string | undefined>) => Promise<OpenDatabase>;
}

class UsageError extends Error {
  constructor(
    readonly messageCode: CliMessageCode,
    readonly params: Record<string, string | number> = {},
  ) {
    super(messageCode);
  }
}

function languageOf(argv: string[], env: AdminIo['env']): Lang {
  const i = argv.indexOf('--lang');
  const given = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--lang='))?.slice(7);
  const tag = (given ?? env.GREETIE_LANG ?? env.LC_ALL ?? env.LC_MESSAGES ?? env.LANG ?? '').toLowerCase();
  return tag.startsWith('en') ? 'en' : 'sv';
}

const MERCHANT_OPTIONS = {
  name: { type: 'string' },
  description: { type: 'string' },
  'logo-url': { type: 'string' },
  category: { type: 'string' },
  website: { type: 'string' },
  sources: { type: 'string' },
  street: { type: 'string' },
  'postal-code': { type: 'string' },
  city: { type: 'string' },
  'opening-hours': { type: 'string' },
  active: { type: 'string' },
  code: { type: 'string' },
  lang: { type: 'string' },
} as const;

const PRODUCT_OPTIONS = {
  merchant: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  'image-url': { type: 'string' },
  source: { type: 'string' },
  price: { type: 'string' },
  min: { type: 'string' },
  max: { type: 'string' },
  'valid-days': { type: 'string' },
  lang: { type: 'string' },
} as const;

type Options = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;

function parse<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError('BAD_OPTIONS', { reason: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
  }
}

/** "149", "149,50", "149.5", "1 000" kronor → öre. */
export function kronorToOre(field: string, value: string): number {
  const text = value.replace(/[\s\u00a0]/g, '').replace(/kr$/i, '').replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text)) throw new UsageError('BAD_AMOUNT', { field, value });
  return Math.round(Number(text) * 100);
}

function wholeNumber(field: string, value: string): number {
  if (!/^-?\d{1,9}$/.test(value.trim())) throw new UsageError('BAD_NUMBER', { field, value });
  return Number(value.trim());
}

function bool(field: string, value: string): boolean {
  if (/^(true|ja|yes|1)$/i.test(value)) return true;
  if (/^(false|nej|no|0)$/i.test(value)) return false;
  throw new UsageError('BAD_BOOLEAN', { field });
}

const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Empty text clears an optional link. */
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function firstPositional(positionals: string[], what: string, lang: Lang): string {
  const id = positionals[0];
  if (!id) throw new UsageError('MISSING_ID', { what: what === 'merchant' ? (lang === 'sv' ? 'handlaren' : 'merchant') : lang === 'sv' ? 'produkten' : 'product' });
  return id;
}

async function codeFrom(positional: string | undefined, io: AdminIo): Promise<string> {
  if (positional !== undefined) return positional;
  const piped = await io.readStdin();
  const code = piped?.split(/\r?\n/)[0]?.trim();
  if (!code) throw new UsageError('MISSING_CODE');
  return code;
}

function merchantPatch(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const v = values as Record<string, string | undefined>;
  if (v.name !== undefined) patch.name = v.name;
  if (v.description !== undefined) patch.description = v.description;
  if (v['logo-url'] !== undefined) patch.logoUrl = v['logo-url'];
  if (v.category !== undefined) patch.category = v.category;
  if (v.website !== undefined) patch.website = orNull(v.website);
  if (v.sources !== undefined) patch.sources = list(v.sources);
  // The address is given whole (--street, --postal-code, --city); all three "" take it away.
  const address = [v.street, v['postal-code'], v.city];
  if (address.some((part) => part !== undefined)) {
    patch.address = address.every((part) => part === '') ? null : { street: v.street, postalCode: v['postal-code'], city: v.city };
  }
  if (v['opening-hours'] !== undefined) patch.openingHours = orNull(v['opening-hours']);
  if (v.active !== undefined) patch.active = bool('active', v.active);
  return patch;
}

function productPatch(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const v = values as Record<string, string | undefined>;
  if (v.merchant !== undefined) patch.merchantId = v.merchant;
  if (v.name !== undefined) patch.name = v.name;
  if (v.description !== undefined) patch.description = v.description;
  if (v['image-url'] !== undefined) patch.imageUrl = orNull(v['image-url']);
  if (v.source !== undefined) patch.source = v.source;
  if (v.price !== undefined) patch.price = kronorToOre('price', v.price);
  if (v.min !== undefined) patch.minAmount = kronorToOre('min', v.min);
  if (v.max !== undefined) patch.maxAmount = kronorToOre('max', v.max);
  if (v['valid-days'] !== undefined) patch.validDays = wholeNumber('valid-days', v['valid-days']);
  return patch;
}

const FIELD_NAMES: Record<string, string> = {
  number: '--number',
  role: '--role',
  merchant: '--merchant',
  logoUrl: '--logo-url',
  imageUrl: '--image-url',
  merchantId: '--merchant',
  minAmount: '--min',
  maxAmount: '--max',
  validDays: '--valid-days',
  merchantCode: '--code',
  postalCode: '--postal-code',
  openingHours: '--opening-hours',
};

/** `body.logoUrl` → `--logo-url`: the operator sees the flag they typed. */
function flagOf(field: string): string {
  const parts = field.split('.');
  const name = parts[0] === 'body' ? parts[1] : parts[0];
  // body.address.postalCode → --postal-code; the address as a whole names its three flags.
  if (name === 'address') return parts[parts.indexOf('address') + 1] === undefined ? '--street/--postal-code/--city' : flagOf(parts.slice(parts.indexOf('address') + 1).join('.'));
  if (!name) return '(input)';
  return FIELD_NAMES[name] ?? `--${name}`;
}

type Run = (db: OpenDatabase['db']) => Promise<void>;

async function plan(argv: string[], io: AdminIo, lang: Lang): Promise<Run | 'usage'> {
  const [resource, action, ...rest] = argv.filter((a, i, all) => !(a === '--lang' || all[i - 1] === '--lang' || a.startsWith('--lang=')));
  const print = (value: unknown) => io.out(JSON.stringify(value, null, 2));
  if (!resource || resource === 'help' || resource === '--help' || resource === '-h') return 'usage';

  if (resource === 'merchant' && action === 'staff') {
    const [verb, ...staffArgs] = rest;
    const { values } = parse(staffArgs, { merchant: { type: 'string' }, number: { type: 'string' }, role: { type: 'string' }, lang: { type: 'string' } });
    const v = values as { merchant?: string; number?: string; role?: string };
    if (!v.merchant) throw new UsageError('MISSING_MERCHANT');
    const merchantId = v.merchant;
    switch (verb) {
      case 'add': {
        if (!v.number) throw new UsageError('MISSING_NUMBER');
        if (!v.role) throw new UsageError('MISSING_ROLE');
        const [number, role] = [v.number, v.role];
        return async (db) => {
          const m = await addStaff(db, merchantId, number, role);
          io.out(cliText('STAFF_ADDED', lang, { number: m.mobileNumber, role: m.role }));
        };
      }
      case 'remove': {
        if (!v.number) throw new UsageError('MISSING_NUMBER');
        const number = v.number;
        return async (db) => {
          await removeStaff(db, merchantId, number);
          io.out(cliText('STAFF_REMOVED', lang));
        };
      }
      case 'list':
        return async (db) => {
          const staff = await listStaff(db, merchantId);
          if (!staff.length) io.out(cliText('NO_STAFF', lang));
          for (const m of staff) io.out(`${m.mobileNumber}  ${m.role.padEnd(5)}  ${cliText(m.signedIn ? 'STAFF_SIGNED_IN' : 'STAFF_NOT_SIGNED_IN', lang)}`);
        };
    }
    throw new UsageError('UNKNOWN_COMMAND', { command: ['merchant staff', verb].filter(Boolean).join(' ') });
  }

  if (resource === 'merchant') {
    switch (action) {
      case 'list':
        return async (db) => {
          const rows = await listAllMerchants(db);
          if (!rows.length) io.out(cliText('NO_MERCHANTS', lang));
          for (const r of rows) io.out(`${r.id}  ${r.active ? ' ' : '-'} ${r.category.padEnd(10)} ${r.name}`);
        };
      case 'add': {
        const { values } = parse(rest, MERCHANT_OPTIONS);
        const input = merchantPatch(values);
        delete input.active;
        if (input.description === undefined) input.description = '';
        if (input.website === undefined) input.website = null;
        const code = (values as { code?: string }).code;
        return async (db) => {
          input.merchantCode = await codeFrom(code, io);
          print(await createMerchant(db, input));
        };
      }
      case 'update': {
        const { values, positionals } = parse(rest, MERCHANT_OPTIONS);
        const id = firstPositional(positionals, 'merchant', lang);
        if ((values as { code?: string }).code !== undefined) throw new UsageError('BAD_OPTIONS', { reason: '--code: merchant set-code' });
        const patch = merchantPatch(values);
        return async (db) => print(await updateMerchant(db, id, patch));
      }
      case 'deactivate': {
        const { positionals } = parse(rest, { lang: { type: 'string' } });
        const id = firstPositional(positionals, 'merchant', lang);
        return async (db) => {
          const m = await deactivateMerchant(db, id);
          io.out(cliText('DEACTIVATED', lang, { name: m.name, id: m.id }));
        };
      }
      case 'set-code': {
        const { positionals } = parse(rest, { lang: { type: 'string' } });
        const id = firstPositional(positionals, 'merchant', lang);
        return async (db) => {
          const code = await codeFrom(positionals[1], io);
          await setMerchantCode(db, id, code);
          io.out(cliText('UPDATED', lang));
        };
      }
    }
  }

  if (resource === 'product') {
    switch (action) {
      case 'add': {
        const { values } = parse(rest, PRODUCT_OPTIONS);
        const input = productPatch(values);
        input.description ??= '';
        input.imageUrl ??= null;
        input.price ??= null;
        input.minAmount ??= null;
        input.maxAmount ??= null;
        return async (db) => print(await createProduct(db, input));
      }
      case 'update': {
        const { values, positionals } = parse(rest, PRODUCT_OPTIONS);
        const id = firstPositional(positionals, 'product', lang);
        const patch = productPatch(values);
        if (patch.merchantId !== undefined) throw new UsageError('BAD_OPTIONS', { reason: '--merchant' });
        return async (db) => print(await updateProduct(db, id, patch));
      }
      case 'remove': {
        const { positionals } = parse(rest, { lang: { type: 'string' } });
        const id = firstPositional(positionals, 'product', lang);
        return async (db) => {
          const p = await removeProduct(db, id);
          io.out(cliText('REMOVED', lang, { name: p.name, id: p.id }));
        };
      }
    }
  }
  if (resource === 'codes' && (action === 'load' || action === 'count')) {
    const { values } = parse(rest, { product: { type: 'string' }, file: { type: 'string' }, lang: { type: 'string' } });
    const productId = (values as { product?: string }).product;
    if (!productId) throw new UsageError('MISSING_PRODUCT');
    if (action === 'count') {
      return async (db) => {
        const free = (await freeCodes(db, [productId])).get(productId.toLowerCase()) ?? 0;
        io.out(cliText('CODES_COUNT', lang, { free }));
      };
    }
    const file = (values as { file?: string }).file;
    return async (db) => {
      let text: string | undefined;
      if (file !== undefined) {
        try {
          text = await readFile(file, 'utf8');
        } catch (err) {
          throw new UsageError('CODES_FILE_UNREADABLE', { file, reason: (err as NodeJS.ErrnoException).code ?? 'error' });
        }
      } else {
        text = await io.readStdin();
      }
      if (text === undefined) throw new UsageError('MISSING_CODES');
      const result = await loadCodes(db, productId, parseCodes(text), new Date());
      io.out(cliText('CODES_LOADED', lang, { added: result.added, duplicates: result.duplicates, free: result.free }));
    };
  }
  throw new UsageError('UNKNOWN_COMMAND', { command: [resource, action].filter(Boolean).join(' ') });
}

function reportHttpError(err: HttpError, io: AdminIo, lang: Lang): number {
  io.err(`${cliText('ERROR_PREFIX', lang)}: ${translate(err.code, lang, err.params)}`);
  const details = Array.isArray(err.details) ? (err.details as FieldProblem[]) : [];
  for (const d of details) io.err(`  ${flagOf(d.field)} ${problemMessage(d.problem, lang)}`);
  if (err.statusCode === 404) return EXIT.notFound;
  if (err.statusCode === 409) return EXIT.conflict;
  return EXIT.badInput;
}

/** Runs one admin command; resolves to the process exit code. Never prints a merchant code. */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  registerServerMessages();
  const lang = languageOf(argv, io.env);
  const usage = () => cliText('USAGE', lang, { categories: MERCHANT_CATEGORIES.join(', ') });
  let run: Run | 'usage';
  try {
    run = await plan(argv, io, lang);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${cliText('ERROR_PREFIX', lang)}: ${cliText(err.messageCode, lang, err.params)}`);
      if (err.messageCode === 'UNKNOWN_COMMAND') io.err(usage());
      return EXIT.badInput;
    }
    throw err;
  }
  if (run === 'usage') {
    io.out(usage());
    return EXIT.ok;
  }

  let database: OpenDatabase;
  try {
    database = await (io.openDb ?? ((env) => openDatabase(env)))(io.env);
  } catch (err) {
    if (err instanceof ConnectionError) {
      const code: CliMessageCode =
        err.reason === 'config' ? 'DB_CONFIG' : err.reason === 'busy' ? 'DATA_DIR_BUSY' : err.reason === 'not-migrated' ? 'DB_NOT_MIGRATED' : 'DB_UNREACHABLE';
      io.err(`${cliText('ERROR_PREFIX', lang)}: ${cliText(code, lang, err.params)}`);
      return err.reason === 'config' ? EXIT.badInput : EXIT.database;
    }
    throw err;
  }
  try {
    await run(database.db);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof HttpError) return reportHttpError(err, io, lang);
    if (err instanceof UsageError) {
      io.err(`${cliText('ERROR_PREFIX', lang)}: ${cliText(err.messageCode, lang, err.params)}`);
      return EXIT.badInput;
    }
    // Unexpected: say what failed without dumping values (they could hold a code).
    io.err(`${cliText('ERROR_PREFIX', lang)}: ${translate('INTERNAL_ERROR', lang)} (${err instanceof Error ? err.name : 'error'})`);
    return EXIT.failed;
  } finally {
    await database.close();
  }
}
