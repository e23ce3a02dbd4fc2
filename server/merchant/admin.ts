import { transaction, type Db } from '../db/index.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { validate } from '../validation.ts';
import { isUuid } from '../../contract/common.ts';
import {
  MerchantCreate,
  MerchantUpdate,
  ProductCreate,
  ProductUpdate,
  MerchantCode,
  type MerchantCategory,
  type MerchantSource,
} from '../../contract/merchant.ts';
import type { MerchantAddress } from '../../contract/merchant.ts';
import { hashMerchantCode } from './code.ts';
import * as q from './queries.ts';

/**
 * The operator's changes to the catalogue (the admin command line uses these; an operator API
 * would too). Input is validated against the contract schemas, the same ones the API validates
 * with (server/validation.ts), then against the rules a schema cannot say. Every multi-row change
 * runs in one transaction; the catalogue version trigger (003_merchant) makes each committed
 * change empty every API process's cache.
 */

export interface AdminMerchant {
  id: string;
  name: string;
  description: string;
  logoUrl: string;
  category: MerchantCategory;
  website: string | null;
  sources: MerchantSource[];
  address: MerchantAddress | null;
  openingHours: string | null;
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

function checkId(id: string): void {
  if (!isUuid(id)) throw badRequest('VALIDATION_FAILED', {}, [{ field: 'params.id', problem: 'format' }]);
}

function toAdminMerchant(r: q.MerchantRecord): AdminMerchant {
  return { ...q.merchantFields(r), active: r.active };
}

function toAdminProduct(r: q.ProductRecord): AdminProduct {
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

/** The address's columns: trimmed, the postal code as "NNN NN"; all null for no address. */
function addressColumns(a: MerchantAddress | null): { street: string | null; postal_code: string | null; city: string | null } {
  if (!a) return { street: null, postal_code: null, city: null };
  const digits = a.postalCode.replace(' ', '');
  return { street: a.street.trim(), postal_code: `${digits.slice(0, 3)} ${digits.slice(3)}`, city: a.city.trim() };
}

async function lockMerchant(tx: Parameters<typeof q.lockMerchant>[0], id: string): Promise<q.MerchantRecord> {
  const row = await q.lockMerchant(tx, id);
  if (!row) throw notFound('MERCHANT_NOT_FOUND');
  return row;
}

export async function createMerchant(db: Db, input: unknown): Promise<AdminMerchant> {
  const m = validate(MerchantCreate, input);
  const row = await q.insertMerchant(db, {
    name: m.name.trim(),
    description: m.description.trim(),
    logo_url: m.logoUrl,
    category: m.category,
    website: m.website,
    sources: m.sources,
    ...addressColumns(m.address ?? null),
    opening_hours: m.openingHours?.trim() ?? null,
    code_hash: await hashMerchantCode(m.merchantCode),
  });
  return toAdminMerchant(row);
}

export async function updateMerchant(db: Db, id: string, patch: unknown): Promise<AdminMerchant> {
  checkId(id);
  const p = validate(MerchantUpdate, patch);
  return transaction(db, async (tx) => {
    await lockMerchant(tx, id);
    if (p.sources) {
      const inUse = await q.activeProductSourceOutside(tx, id, p.sources);
      if (inUse) throw conflict('MERCHANT_SOURCE_IN_USE', { source: inUse });
    }
    const row = await q.updateMerchantRow(tx, id, {
      ...(p.name !== undefined && { name: p.name.trim() }),
      ...(p.description !== undefined && { description: p.description.trim() }),
      ...(p.logoUrl !== undefined && { logo_url: p.logoUrl }),
      ...(p.category !== undefined && { category: p.category }),
      ...(p.website !== undefined && { website: p.website }),
      ...(p.sources !== undefined && { sources: p.sources }),
      ...(p.address !== undefined && addressColumns(p.address)),
      ...(p.openingHours !== undefined && { opening_hours: p.openingHours?.trim() ?? null }),
      ...(p.active !== undefined && { active: p.active }),
    });
    return toAdminMerchant(row!);
  });
}

export function deactivateMerchant(db: Db, id: string): Promise<AdminMerchant> {
  return updateMerchant(db, id, { active: false });
}

/** Replaces the merchant code. The code is hashed here and never returned. */
export async function setMerchantCode(db: Db, id: string, code: unknown): Promise<void> {
  checkId(id);
  const valid = validate(MerchantCode, code, 'merchantCode');
  if (!(await q.setMerchantCodeHash(db, id, await hashMerchantCode(valid)))) throw notFound('MERCHANT_NOT_FOUND');
}

/** Rules a schema cannot say: price or range (not both), min ≤ max, a source the merchant offers. */
function checkProduct(p: Pick<AdminProduct, 'price' | 'minAmount' | 'maxAmount' | 'source'>, merchant: q.MerchantRecord): void {
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
    const row = await q.insertProduct(tx, {
      merchant_id: p.merchantId,
      name: p.name.trim(),
      description: p.description.trim(),
      image_url: p.imageUrl,
      source: p.source,
      price: p.price,
      min_amount: p.minAmount,
      max_amount: p.maxAmount,
      valid_days: p.validDays,
    });
    return toAdminProduct(row);
  });
}

export async function updateProduct(db: Db, id: string, patch: unknown): Promise<AdminProduct> {
  checkId(id);
  const p = validate(ProductUpdate, patch);
  return transaction(db, async (tx) => {
    const current = await q.lockProduct(tx, id);
    if (!current) throw notFound('PRODUCT_NOT_FOUND');
    const merchant = await lockMerchant(tx, current.merchant_id);
    const next = { ...toAdminProduct(current), ...p };
    // Setting a fixed price replaces a range and the other way round, unless both are given.
    if (p.price != null && p.minAmount === undefined && p.maxAmount === undefined) Object.assign(next, { minAmount: null, maxAmount: null });
    if ((p.minAmount != null || p.maxAmount != null) && p.price === undefined) next.price = null;
    checkProduct(next, merchant);
    const row = await q.updateProductRow(tx, id, {
      name: next.name.trim(),
      description: next.description.trim(),
      image_url: next.imageUrl,
      source: next.source,
      price: next.price,
      min_amount: next.minAmount,
      max_amount: next.maxAmount,
      valid_days: next.validDays,
    });
    return toAdminProduct(row!);
  });
}

/**
 * Takes a product out of the catalogue. The row stays (inactive): vouchers already sold point
 * at it and must keep their name and merchant.
 */
export async function removeProduct(db: Db, id: string): Promise<AdminProduct> {
  checkId(id);
  const row = await q.updateProductRow(db, id, { active: false });
  if (!row) throw notFound('PRODUCT_NOT_FOUND');
  return toAdminProduct(row);
}
