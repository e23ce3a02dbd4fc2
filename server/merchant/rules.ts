import { sql, type Selectable } from 'kysely';
import { Value } from 'typebox/value';
import type { TSchema, Static } from 'typebox';
import { transaction, type Db, type Tx } from '../db/index.ts';
import type { MerchantTable, ProductTable } from '../db/schema.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import {
  MerchantCreate,
  MerchantUpdate,
  ProductCreate,
  ProductUpdate,
  MerchantCode,
  type MerchantCategory,
  type MerchantSource,
} from '../../contract/merchant.ts';
import { hashMerchantCode } from './code.ts';
import { merchantFields } from './queries.ts';

/**
 * Changes to the catalogue (the admin command line uses these; an operator API would too).
 * Input is validated against the contract schemas, the same ones the API validates with, then
 * against the rules a schema cannot say. Every change runs in one transaction; the catalogue
 * version trigger (003_merchant) makes each committed change empty every API process's cache.
 */

export interface AdminMerchant {
  id: string;
  name: string;
  description: string;
  logoUrl: string;
  category: MerchantCategory;
  website: string | null;
  sources: MerchantSource[];
  active: boolean;
}

export interface AdminProduct {
  id: string;
  merchantId: string;
  name: string;
  description: string;
  imageUrl: string | null;
  source: MerchantSource;
  price: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  validDays: number;
  active: boolean;
}

export interface FieldProblem {
  field: string;
  problem: string;
}

/**
 * The first problem of one value against one schema. A union reports each variant it tried and
 * then `anyOf`; the person only needs "not an allowed value".
 */
function firstProblem(schema: TSchema, value: unknown): { path: string; problem: string } | undefined {
  const errors = Value.Errors(schema, value).filter((e) => e.keyword !== 'boolean');
  if (!errors.length) return undefined;
  const union = errors.find((e) => e.keyword === 'anyOf');
  const e = union ?? errors[0]!;
  return { path: e.instancePath.replace(/^\//, '').replace(/\//g, '.'), problem: e.keyword };
}

/**
 * Schema problems as `[{ field, problem }]`, the way the API's error handler reports them: one
 * per field (each property is checked on its own, so one bad field never hides another), then
 * missing and unknown fields.
 */
export function schemaProblems(schema: TSchema, value: unknown, prefix = 'body'): FieldProblem[] {
  const s = schema as TSchema & { type?: string; properties?: Record<string, TSchema>; required?: string[] };
  if (s.type !== 'object' || !s.properties || typeof value !== 'object' || value === null || Array.isArray(value)) {
    const p = firstProblem(schema, value);
    return p ? [{ field: p.path ? `${prefix}.${p.path}` : prefix, problem: p.problem }] : [];
  }
  const record = value as Record<string, unknown>;
  const out: FieldProblem[] = [];
  for (const [key, propSchema] of Object.entries(s.properties)) {
    if (record[key] === undefined) {
      if (s.required?.includes(key)) out.push({ field: `${prefix}.${key}`, problem: 'required' });
      continue;
    }
    const p = firstProblem(propSchema, record[key]);
    if (p) out.push({ field: [prefix, key, p.path].filter(Boolean).join('.'), problem: p.problem });
  }
  for (const key of Object.keys(record)) {
    if (!(key in s.properties)) out.push({ field: `${prefix}.${key}`, problem: 'additionalProperties' });
  }
  if (!out.length) {
    // Whole-object rules (minProperties).
    const p = firstProblem(schema, value);
    if (p) out.push({ field: p.path ? `${prefix}.${p.path}` : prefix, problem: p.problem });
  }
  return out;
}

export function validate<S extends TSchema>(schema: S, value: unknown): Static<S> {
  const problems = schemaProblems(schema, value);
  if (problems.length) throw badRequest('VALIDATION_FAILED', {}, problems);
  return value as Static<S>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function checkId(id: string, field = 'id'): void {
  if (!isUuid(id)) throw badRequest('VALIDATION_FAILED', {}, [{ field: `params.${field}`, problem: 'format' }]);
}

type MerchantRecord = Pick<
  Selectable<MerchantTable>,
  'id' | 'name' | 'description' | 'logo_url' | 'category' | 'website' | 'sources' | 'active'
>;

function toAdminMerchant(r: MerchantRecord): AdminMerchant {
  return { ...merchantFields(r), active: r.active };
}

type ProductRecord = Pick<
  Selectable<ProductTable>,
  'id' | 'merchant_id' | 'name' | 'description' | 'image_url' | 'source' | 'price' | 'min_amount' | 'max_amount' | 'valid_days' | 'active'
>;

function toAdminProduct(r: ProductRecord): AdminProduct {
  return {
    id: r.id,
    merchantId: r.merchant_id,
    name: r.name,
    description: r.description,
    imageUrl: r.image_url,
    source: r.source as MerchantSource,
    price: r.price,
    minAmount: r.min_amount,
    maxAmount: r.max_amount,
    validDays: r.valid_days,
    active: r.active,
  };
}

const MERCHANT_COLUMNS = ['id', 'name', 'description', 'logo_url', 'category', 'website', 'sources', 'active'] as const;
const PRODUCT_COLUMNS = [
  'id',
  'merchant_id',
  'name',
  'description',
  'image_url',
  'source',
  'price',
  'min_amount',
  'max_amount',
  'valid_days',
  'active',
] as const;

async function lockMerchant(tx: Tx, id: string): Promise<MerchantRecord> {
  const row = await tx.selectFrom('merchant').select(MERCHANT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw notFound('MERCHANT_NOT_FOUND');
  return row;
}

export async function createMerchant(db: Db, input: unknown): Promise<AdminMerchant> {
  const m = validate(MerchantCreate, input);
  const codeHash = await hashMerchantCode(m.merchantCode);
  const row = await db
    .insertInto('merchant')
    .values({
      name: m.name.trim(),
      description: m.description.trim(),
      logo_url: m.logoUrl,
      category: m.category,
      website: m.website,
      sources: m.sources,
      code_hash: codeHash,
    })
    .returning(MERCHANT_COLUMNS)
    .executeTakeFirstOrThrow();
  return toAdminMerchant(row);
}

export async function updateMerchant(db: Db, id: string, patch: unknown): Promise<AdminMerchant> {
  checkId(id);
  const p = validate(MerchantUpdate, patch);
  return transaction(db, async (tx) => {
    await lockMerchant(tx, id);
    if (p.sources) {
      const inUse = await tx
        .selectFrom('product')
        .select('source')
        .where('merchant_id', '=', id)
        .where('active', '=', true)
        .where('source', 'not in', p.sources)
        .executeTakeFirst();
      if (inUse) throw conflict('MERCHANT_SOURCE_IN_USE', { source: inUse.source });
    }
    const row = await tx
      .updateTable('merchant')
      .set({
        ...(p.name !== undefined && { name: p.name.trim() }),
        ...(p.description !== undefined && { description: p.description.trim() }),
        ...(p.logoUrl !== undefined && { logo_url: p.logoUrl }),
        ...(p.category !== undefined && { category: p.category }),
        ...(p.website !== undefined && { website: p.website }),
        ...(p.sources !== undefined && { sources: p.sources }),
        ...(p.active !== undefined && { active: p.active }),
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning(MERCHANT_COLUMNS)
      .executeTakeFirstOrThrow();
    return toAdminMerchant(row);
  });
}

export function deactivateMerchant(db: Db, id: string): Promise<AdminMerchant> {
  return updateMerchant(db, id, { active: false });
}

/** Replaces the merchant code. The code is hashed here and never returned. */
export async function setMerchantCode(db: Db, id: string, code: unknown): Promise<void> {
  checkId(id);
  const problems = schemaProblems(MerchantCode, code, 'merchantCode');
  if (problems.length) throw badRequest('VALIDATION_FAILED', {}, problems);
  const codeHash = await hashMerchantCode(code as string);
  const res = await db
    .updateTable('merchant')
    .set({ code_hash: codeHash, updated_at: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  if (!res.numUpdatedRows) throw notFound('MERCHANT_NOT_FOUND');
}

/** Rules a schema cannot say: price or range (not both), min ≤ max, a source the merchant offers. */
function checkProduct(p: Pick<AdminProduct, 'price' | 'minAmount' | 'maxAmount' | 'source'>, merchant: MerchantRecord): void {
  const fixed = p.price !== null;
  const range = p.minAmount !== null || p.maxAmount !== null;
  if (fixed === range || (range && (p.minAmount === null || p.maxAmount === null))) throw badRequest('PRODUCT_PRICE_OR_RANGE');
  if (range && p.minAmount! > p.maxAmount!) throw badRequest('PRODUCT_RANGE_ORDER');
  if (!merchant.sources.includes(p.source)) throw badRequest('PRODUCT_SOURCE_NOT_OFFERED', { source: p.source });
}

export async function createProduct(db: Db, input: unknown): Promise<AdminProduct> {
  const p = validate(ProductCreate, input);
  return transaction(db, async (tx) => {
    const merchant = await lockMerchant(tx, p.merchantId);
    checkProduct(p, merchant);
    const row = await tx
      .insertInto('product')
      .values({
        merchant_id: p.merchantId,
        name: p.name.trim(),
        description: p.description.trim(),
        image_url: p.imageUrl,
        source: p.source,
        price: p.price,
        min_amount: p.minAmount,
        max_amount: p.maxAmount,
        valid_days: p.validDays,
      })
      .returning(PRODUCT_COLUMNS)
      .executeTakeFirstOrThrow();
    return toAdminProduct(row);
  });
}

export async function updateProduct(db: Db, id: string, patch: unknown): Promise<AdminProduct> {
  checkId(id);
  const p = validate(ProductUpdate, patch);
  return transaction(db, async (tx) => {
    const current = await tx.selectFrom('product').select(PRODUCT_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!current) throw notFound('PRODUCT_NOT_FOUND');
    const merchant = await lockMerchant(tx, current.merchant_id);
    const next = { ...toAdminProduct(current), ...p };
    // Setting a fixed price replaces a range and the other way round, unless both are given.
    if (p.price != null && p.minAmount === undefined && p.maxAmount === undefined) Object.assign(next, { minAmount: null, maxAmount: null });
    if ((p.minAmount != null || p.maxAmount != null) && p.price === undefined) next.price = null;
    checkProduct(next, merchant);
    const row = await tx
      .updateTable('product')
      .set({
        name: next.name.trim(),
        description: next.description.trim(),
        image_url: next.imageUrl,
        source: next.source,
        price: next.price,
        min_amount: next.minAmount,
        max_amount: next.maxAmount,
        valid_days: next.validDays,
        updated_at: sql`now()`,
      })
      .where('id', '=', id)
      .returning(PRODUCT_COLUMNS)
      .executeTakeFirstOrThrow();
    return toAdminProduct(row);
  });
}

/**
 * Takes a product out of the catalogue. The row stays (inactive): vouchers already sold point
 * at it and must keep their name and merchant.
 */
export async function removeProduct(db: Db, id: string): Promise<AdminProduct> {
  checkId(id);
  const row = await db
    .updateTable('product')
    .set({ active: false, updated_at: sql`now()` })
    .where('id', '=', id)
    .returning(PRODUCT_COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound('PRODUCT_NOT_FOUND');
  return toAdminProduct(row);
}

export function isHttpError(err: unknown): err is HttpError {
  return err instanceof HttpError;
}
