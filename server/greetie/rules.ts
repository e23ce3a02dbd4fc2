import { randomBytes } from 'node:crypto';
import type { MerchantSource } from '../../contract/merchant.ts';
import type { ErrorCode } from '../../contract/errors.ts';
import {
  GREETIE_PAGE_DEFAULT,
  type ContentElement,
  type GiftInput,
  type Greetie,
  type PublicGreetie,
  type GreetieCreateV2,
  type GreetieInfo,
  type GreetieMedia,
  type GreetieUpdate,
  type RecipientInput,
} from '../../contract/greetie.ts';
import { transaction, type Db, type Tx } from '../db/index.ts';
import { decodeCursor as decodeKeysetCursor, encodeCursor as encodeKeysetCursor } from '../cursor.ts';
import { HttpError, badRequest, conflict, notFound } from '../errors.ts';
import type { Deps } from '../services.ts';
import { normaliseSwedishMobile } from '../auth/phone.ts';
import { NAME_MAX_LENGTH, checkName, checkOptionalName } from '../../contract/name.ts';
import { checkCodePools } from '../voucher/codes.ts';
import {
  callerNumber,
  senderName,
  deleteGreetie,
  findGreetie,
  findGreetieByRef,
  findGreeties,
  findDeliveredTo,
  findSentBy,
  giftsOf,
  greetiePage,
  insertGreetie,
  lockOwnGreetie,
  markScheduled,
  markViewed,
  mediaOf,
  pictureKeysOf,
  purchasableProducts,
  thanksOf,
  replaceGifts,
  updateGreetie,
  type GiftRow,
  type GreetieChanges,
  type GreetieRow,
  type Keyset,
} from './queries.ts';
import { mediaPath, mediaUrl } from '../mediaUrls.ts';
import { checkSendLimits, scheduleDelivery } from '../delivery/rules.ts';
import type { Voucher } from '../../contract/voucher.ts';
import { toVoucher, vouchersOfGreeties } from '../voucher/rules.ts';

/** What the resources above greetie (media, payment) read and lock of a greetie, inside their own transactions. */
export { findGreetie, giftsOf, lockOwnGreetie } from './queries.ts';

/**
 * Greeties' rules (API.md "Greetie"): what a draft may hold, who may read and change one, and
 * when. Decisions:
 * - A draft needs nothing to start (the media step comes first and needs the draft's id); send
 *   refuses one without a recipient (400).
 * - Gifts: products of active merchants only. A fixed-price product takes its price; an `amount`
 *   sent for one is accepted only when it equals that price (a client showing a stale price is
 *   told, not silently charged another sum). A value voucher needs an `amount` inside its
 *   min/max. The total is the sum, computed here; nothing the client says about it is read.
 * - The recipient list (GET /greetie) and GET /greetie/{id} show a greetie to its recipient only
 *   once it is delivered: a scheduled one is still a surprise, and a draft is the sender's own.
 * - A greetie sent to oneself is listed once (as sent); reading it once delivered marks it viewed,
 *   since its sender is also its recipient. Anyone else's reads never mark it.
 */

type Db_ = Pick<Deps, 'db'>;
type DbClock = Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'now'> };
type DbClockDelivery = Pick<Deps, 'db' | 'config'> & { services: Pick<Deps['services'], 'now' | 'delivery'> };

/**
 * How a stored file is addressed in an answer: while the greetie is a draft, with a signature only
 * its sender is given (decision 071); after, by its unguessable key alone.
 */
type UrlOf = (storageKey: string, draft: boolean) => string;
export function urlsFor(deps: Pick<Deps, 'config'> & { services: Pick<Deps['services'], 'now'> }): UrlOf {
  const now = deps.services.now();
  return (storageKey, draft) => mediaUrl(deps.config.tokenSigningKey, storageKey, { draft, now });
}

/** 128 random bits, base64url: the unguessable reference in the recipient's link. */
export function newRefId(): string {
  return randomBytes(16).toString('base64url');
}

const field = (f: string, problem: string) => [{ field: `body.${f}`, problem }];

// ---- Input checks (each a 400 naming the field; nothing is written before they all pass) ----

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** NUL and lone surrogates cannot be stored (PostgreSQL text and jsonb refuse them). */
function storable(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

export function checkText(value: string, at: string): void {
  if (!storable(value)) throw badRequest('TEXT_INVALID_CHARACTERS', {}, field(at, 'characters'));
}

/** Emoji: pictographs and what joins and modifies them (ZWJ, VS16, skin tones, flags, keycaps). */
const EMOJI_CHARS = /^[\p{Extended_Pictographic}\p{Emoji_Component}]+$/u;
const EMOJI_CORE = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20e3]/u;

export function isEmoji(value: string): boolean {
  return EMOJI_CHARS.test(value) && EMOJI_CORE.test(value);
}

/** `/api/media/{key}` → key. */
function mediaKey(url: string): string {
  return url.slice('/api/media/'.length);
}

/**
 * What the schema cannot say about content: emoji are emoji, text is storable, and a picture is
 * one uploaded to this greetie (`greetieId` undefined: not created yet, so it has none).
 */
async function checkContent(db: Db | Tx, content: ContentElement[], greetieId: string | undefined): Promise<void> {
  const pictures: { key: string; at: string }[] = [];
  content.forEach((el, i) => {
    const at = `content.${i}.value`;
    if (el.type === 'emoji' && !isEmoji(el.value)) throw badRequest('CONTENT_EMOJI_INVALID', {}, field(at, 'emoji'));
    if (el.type === 'text') checkText(el.value, at);
    if (el.type === 'picture') pictures.push({ key: mediaKey(el.value), at });
  });
  if (pictures.length === 0) return;
  const known = greetieId ? await pictureKeysOf(db, greetieId, pictures.map((p) => p.key)) : new Set<string>();
  const unknown = pictures.find((p) => !known.has(p.key));
  if (unknown) throw badRequest('CONTENT_PICTURE_UNKNOWN', {}, field(unknown.at, 'unknown'));
}

export function recipientOf(input: RecipientInput): { number: string; name: string | null } {
  const number = normaliseSwedishMobile(input.mobileNumber);
  if (!number) throw badRequest('INVALID_MOBILE_NUMBER', {}, field('recipient.mobileNumber', 'mobileNumber'));
  // The name rule of contract/name.ts: no link, domain, phone number or invisible character.
  const checked = checkOptionalName(input.name);
  if (!checked.ok) throw badRequest(checked.problem, { max: NAME_MAX_LENGTH }, field('recipient.name', checked.problem));
  return { number, name: checked.name };
}

/** deliverAt: in the future and at most one year ahead of `now`. */
export function deliverAtOf(value: string, now: Date): Date {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw badRequest('VALIDATION_FAILED', {}, field('deliverAt', 'format'));
  if (at.getTime() <= now.getTime()) throw badRequest('DELIVER_AT_PAST', {}, field('deliverAt', 'past'));
  const limit = new Date(now);
  limit.setUTCFullYear(limit.getUTCFullYear() + 1);
  if (at.getTime() > limit.getTime()) throw badRequest('DELIVER_AT_TOO_FAR', {}, field('deliverAt', 'tooFar'));
  return at;
}

/** Kronor as people read them in a message: 50 or 49,50. */
function kr(ore: number): string {
  return ore % 100 === 0 ? String(ore / 100) : (ore / 100).toFixed(2).replace('.', ',');
}

const INT_MAX = 2_147_483_647;

/** Each gift's amount from its product, and the total; 400 naming the first gift that is wrong. */
export async function priceGifts(db: Db | Tx, gifts: GiftInput[]): Promise<{ rows: GiftRow[]; total: number }> {
  const products = new Map((await purchasableProducts(db, [...new Set(gifts.map((g) => g.productId))])).map((p) => [p.id, p]));
  const rows = gifts.map((gift, i): GiftRow => {
    const p = products.get(gift.productId.toLowerCase());
    if (!p) throw badRequest('GIFT_PRODUCT_UNAVAILABLE', {}, field(`gifts.${i}.productId`, 'unavailable'));
    if (p.price !== null) {
      if (gift.amount !== undefined && gift.amount !== p.price) {
        throw badRequest('GIFT_AMOUNT_FIXED', { price: kr(p.price) }, field(`gifts.${i}.amount`, 'fixedPrice'));
      }
      return { productId: p.id, amount: p.price };
    }
    const min = p.min_amount ?? 1;
    const max = p.max_amount ?? min;
    if (gift.amount === undefined) throw badRequest('GIFT_AMOUNT_REQUIRED', { min: kr(min), max: kr(max) }, field(`gifts.${i}.amount`, 'required'));
    if (gift.amount < min || gift.amount > max) {
      throw badRequest('GIFT_AMOUNT_OUT_OF_RANGE', { min: kr(min), max: kr(max) }, field(`gifts.${i}.amount`, 'range'));
    }
    return { productId: p.id, amount: gift.amount };
  });
  const total = rows.reduce((sum, r) => sum + r.amount, 0);
  if (total > INT_MAX) throw badRequest('GIFT_TOTAL_TOO_LARGE', {}, field('gifts', 'total'));
  return { rows, total };
}

// ---- Answers ----

function toMedia(files: { role: string; kind: 'photo' | 'video'; storage_key: string }[], draft: boolean, urlOf: UrlOf): GreetieMedia | null {
  const latest = (role: string) => files.filter((f) => f.role === role).at(-1);
  const media = latest('media');
  if (!media) return null;
  const thumbnail = latest('thumbnail');
  const overlay = latest('overlay');
  return {
    kind: media.kind,
    url: urlOf(media.storage_key, draft),
    thumbnailUrl: thumbnail ? urlOf(thumbnail.storage_key, draft) : null,
    overlayUrl: overlay ? urlOf(overlay.storage_key, draft) : null,
  };
}

/** Whether `viewerNumber` owns this greetie's vouchers (and so sees their codes): it was delivered to it. */
function ownsVouchers(r: Pick<GreetieRow, 'status' | 'recipient_number'>, viewerNumber: string | null | undefined): boolean {
  return r.status === 'delivered' && r.recipient_number !== null && r.recipient_number === viewerNumber;
}

/**
 * Greetie rows as the contract shapes them, with their gifts, vouchers and media (four queries for
 * any number). Vouchers carry their codes only for `viewerNumber`, the number a delivered greetie
 * went to; the sender and the public view see what was given, never a code.
 */
export async function toGreeties(db: Db | Tx, rows: GreetieRow[], urlOf: UrlOf, viewerNumber?: string | null): Promise<Greetie[]> {
  const ids = rows.map((r) => r.id);
  const [gifts, media, vouchers, thanks] = await Promise.all([giftsOf(db, ids), mediaOf(db, ids), vouchersOfGreeties(db, ids), thanksOf(db, ids)]);
  const thanksBy = new Map(thanks.map((t) => [t.greetie_id, { message: t.message, emoji: t.emoji, createdAt: t.created_at.toISOString() }]));
  return rows.map((r) => ({
    id: r.id,
    refId: r.ref_id,
    status: r.status,
    sender: { id: r.sender_id, name: r.sender_name },
    recipient: r.recipient_number ? { name: r.recipient_name, mobileNumber: r.recipient_number } : null,
    message: r.message,
    content: r.content as ContentElement[],
    media: toMedia(media.filter((m) => m.greetie_id === r.id), r.status === 'draft', urlOf),
    gifts: gifts
      .filter((g) => g.greetie_id === r.id)
      .map((g) => ({
        productId: g.product_id,
        productName: g.product_name,
        merchantId: g.merchant_id,
        merchantName: g.merchant_name,
        source: g.source as MerchantSource,
        amount: g.amount,
      })),
    // A cancelled greetie's vouchers are void: gone from every answer.
    vouchers: r.status === 'cancelled' ? [] : vouchers.filter((v) => v.greetie_id === r.id).map((v) => toVoucher(v, ownsVouchers(r, viewerNumber))),
    total: r.total,
    deliverAt: r.deliver_at?.toISOString() ?? null,
    deliveredAt: r.delivered_at?.toISOString() ?? null,
    viewed: r.viewed_at !== null,
    viewedAt: r.viewed_at?.toISOString() ?? null,
    thanks: thanksBy.get(r.id) ?? null,
    cancelledAt: r.cancelled_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

export async function greetieById(db: Db | Tx, id: string, urlOf: UrlOf): Promise<Greetie> {
  const row = await findGreetie(db, id);
  if (!row) throw notFound('GREETIE_NOT_FOUND');
  return (await toGreeties(db, [row], urlOf))[0]!;
}

// ---- Calls ----

/** POST /greetie and /greetie/createv2: a draft of the caller's, with whatever was given. */
export async function createDraft(deps: DbClock, userId: string, body: GreetieCreateV2): Promise<Greetie> {
  const now = deps.services.now();
  const recipient = body.recipient ? recipientOf(body.recipient) : null;
  if (body.message !== undefined) checkText(body.message, 'message');
  const deliverAt = body.deliverAt ? deliverAtOf(body.deliverAt, now) : null;
  const content = body.content ?? [];
  await checkContent(deps.db, content, undefined);
  const gifts = body.gifts?.length ? await priceGifts(deps.db, body.gifts) : undefined;
  if (gifts) await checkCodePools(deps.db, gifts.rows.map((r) => r.productId));
  return transaction(deps.db, async (tx) => {
    const id = await insertGreetie(tx, {
      refId: newRefId(),
      senderId: userId,
      recipientNumber: recipient?.number ?? null,
      recipientName: recipient?.name ?? null,
      message: body.message ?? '',
      content,
      deliverAt,
      now,
    });
    if (gifts) await replaceGifts(tx, id, gifts.rows, gifts.total, now);
    return greetieById(tx, id, urlsFor(deps));
  });
}

/** The sender's greetie locked for a change: 404 when not theirs, 409 when `allowed` says no. */
async function lockForChange(tx: Tx, userId: string, id: string, allowed: readonly string[], code: ErrorCode) {
  const row = await lockOwnGreetie(tx, id, userId);
  if (!row) throw notFound('GREETIE_NOT_FOUND');
  if (!allowed.includes(row.status)) throw conflict(code);
  return row;
}

/** PATCH /greetie/{id}: the sender's draft, changed as one. */
export async function updateDraft(deps: DbClock, userId: string, id: string, body: GreetieUpdate): Promise<Greetie> {
  const now = deps.services.now();
  return transaction(deps.db, async (tx) => {
    await lockForChange(tx, userId, id, ['draft'], 'GREETIE_NOT_DRAFT');
    const changes: GreetieChanges = {};
    if (body.recipient !== undefined) {
      const r = body.recipient ? recipientOf(body.recipient) : null;
      changes.recipientNumber = r?.number ?? null;
      changes.recipientName = r?.name ?? null;
    }
    if (body.message !== undefined) {
      checkText(body.message, 'message');
      changes.message = body.message;
    }
    if (body.content !== undefined) {
      await checkContent(tx, body.content, id);
      changes.content = body.content;
    }
    if (body.deliverAt !== undefined) changes.deliverAt = body.deliverAt === null ? null : deliverAtOf(body.deliverAt, now);
    const gifts = body.gifts ? await priceGifts(tx, body.gifts) : undefined;
    if (gifts) await checkCodePools(tx, gifts.rows.map((r) => r.productId));
    await updateGreetie(tx, id, changes, now);
    if (gifts) await replaceGifts(tx, id, gifts.rows, gifts.total, now);
    return greetieById(tx, id, urlsFor(deps));
  });
}

/**
 * /send and /startpayment: 409 SENDER_NAME_REQUIRED while the sender's profile has no name (or one
 * given before the name rule that the rule now refuses): the SMS names the sender, so the
 * recipient knows who it is from (API.md "Greetie").
 */
export async function requireSenderName(db: Db | Tx, userId: string): Promise<void> {
  const name = await senderName(db, userId);
  if (name === null || !checkName(name).ok) throw conflict('SENDER_NAME_REQUIRED');
}

/** POST /greetie/{id}/send: a draft without gifts becomes scheduled. */
export async function sendDraft(deps: DbClockDelivery, userId: string, id: string): Promise<Greetie> {
  const now = deps.services.now();
  return transaction(deps.db, async (tx) => {
    const row = await lockForChange(tx, userId, id, ['draft'], 'GREETIE_NOT_DRAFT');
    if (row.total > 0 || (await giftsOf(tx, [id])).length > 0) throw conflict('GREETIE_HAS_GIFTS');
    if (!row.recipient_number) throw badRequest('GREETIE_NO_RECIPIENT', {}, field('recipient', 'required'));
    if (row.deliver_at && row.deliver_at.getTime() <= now.getTime()) throw badRequest('DELIVER_AT_PAST', {}, field('deliverAt', 'past'));
    await requireSenderName(tx, userId);
    // The sending limits (429, nothing written), then scheduled with its delivery in this transaction.
    await checkSendLimits(tx, deps, { senderId: userId, recipientNumber: row.recipient_number, greetieId: id });
    await markScheduled(tx, id, now);
    await scheduleDelivery(tx, deps, id);
    return greetieById(tx, id, urlsFor(deps));
  });
}

/**
 * What deleting a greetie needs from its payment. The payment resource sits above greetie and
 * fills this in (server/payment/rules.ts `greetiePayments`, handed to greetieRoutes by
 * server/routes.ts), so greetie never imports payment.
 */
export interface GreetiePayments {
  /** Cancels an open payment of the caller's greetie with the provider, before the delete. */
  cancelBeforeDelete(deps: Deps, userId: string, greetieId: string): Promise<void>;
  /** True while a payment of the greetie is open; read inside the delete's transaction. */
  isOpen(tx: Tx, greetieId: string): Promise<boolean>;
}

/**
 * DELETE /greetie/{id}: while a draft or awaiting payment. The rows go in one transaction; then
 * the stored media (services.media, server/greetie/cleanup.ts). A storage failure is reported to
 * `onCleanupError`, not to the caller: the greetie is gone either way.
 */
export async function deleteOwn(
  deps: Pick<Deps, 'db'> & { services: Pick<Deps['services'], 'media'> },
  payments: Pick<GreetiePayments, 'isOpen'>,
  userId: string,
  id: string,
  onCleanupError: (err: unknown) => void,
): Promise<void> {
  const storageKeys = await transaction(deps.db, async (tx) => {
    await lockForChange(tx, userId, id, ['draft', 'awaitingPayment'], 'GREETIE_NOT_DELETABLE');
    // The payment is cancelled with the provider before this (GreetiePayments.cancelBeforeDelete);
    // one still open here was started meanwhile, and deleting would lose what it pays for.
    if (await payments.isOpen(tx, id)) throw conflict('PAYMENT_PENDING');
    return deleteGreetie(tx, id);
  });
  try {
    await deps.services.media.deleteForGreetie({ greetieId: id, storageKeys });
  } catch (err) {
    onCleanupError(err);
  }
}

/**
 * GET /greetie/{id}: its sender's, or its recipient's once delivered; 404 for everyone else.
 * The recipient's read marks it viewed unless `markAsViewed` is false.
 */
export async function readGreetie(deps: DbClock, userId: string, id: string, markAsViewed: boolean): Promise<Greetie> {
  const { row, number, isRecipient } = await readable(deps, userId, id);
  if (isRecipient && markAsViewed && row.viewed_at === null) return markedViewed(deps, id, number);
  return (await toGreeties(deps.db, [row], urlsFor(deps), number))[0]!;
}

/** The greetie if the caller is its sender or (once delivered) its recipient; 404 for everyone else. */
export async function readable(deps: Db_, userId: string, id: string) {
  const row = await findGreetie(deps.db, id);
  if (!row) throw notFound('GREETIE_NOT_FOUND');
  const number = (await callerNumber(deps.db, userId)) ?? null;
  const isRecipient = ownsVouchers(row, number);
  if (row.sender_id !== userId && !isRecipient) throw notFound('GREETIE_NOT_FOUND');
  return { row, number, isRecipient };
}

/** Marks it viewed (once: a later mark keeps the first time) and answers it as `viewerNumber` sees it. */
async function markedViewed(deps: DbClock, id: string, viewerNumber: string | null): Promise<Greetie> {
  await markViewed(deps.db, id, deps.services.now());
  const row = await findGreetie(deps.db, id);
  if (!row) throw notFound('GREETIE_NOT_FOUND');
  return (await toGreeties(deps.db, [row], urlsFor(deps), viewerNumber))[0]!;
}

/** POST /greetie/{id}/markasviewed: its recipient's, once delivered; anybody else (the sender too) 404. */
export async function markAsViewed(deps: DbClock, userId: string, id: string): Promise<Greetie> {
  const { row, number, isRecipient } = await readable(deps, userId, id);
  if (!isRecipient) throw notFound('GREETIE_NOT_FOUND');
  if (row.viewed_at !== null) return (await toGreeties(deps.db, [row], urlsFor(deps), number))[0]!;
  return markedViewed(deps, id, number);
}

/** GET /greetie/{id}/vouchers: the sender sees what was given (no codes); the recipient once delivered, with codes. */
export async function greetieVouchers(deps: DbClock, userId: string, id: string): Promise<Voucher[]> {
  const { row, isRecipient } = await readable(deps, userId, id);
  // A cancelled greetie's vouchers are void: its sender gets [] (its recipient no longer reads it).
  if (row.status === 'cancelled') return [];
  return (await vouchersOfGreeties(deps.db, [row.id])).map((v) => toVoucher(v, isRecipient));
}

/**
 * GET /greetie/byRef: the public view of a delivered greetie, for whoever holds its reference (it
 * went only to the recipient): no phone numbers, no codes. Opening it marks it viewed, unless the
 * one opening it is its signed-in sender and it went to somebody else (a sender checking their
 * own link). `viewerId`: the caller when signed in, else null.
 */
export async function viewByRef(deps: DbClock, refId: string, viewerId: string | null): Promise<PublicGreetie> {
  let row = await findGreetieByRef(deps.db, refId);
  if (!row || row.status !== 'delivered') throw notFound('GREETIE_NOT_FOUND');
  const senderLooking = viewerId !== null && row.sender_id === viewerId && (await callerNumber(deps.db, viewerId)) !== row.recipient_number;
  if (!senderLooking && row.viewed_at === null) {
    await markViewed(deps.db, row.id, deps.services.now());
    row = (await findGreetie(deps.db, row.id)) ?? row;
  }
  const greetie = (await toGreeties(deps.db, [row], urlsFor(deps), null))[0]!;
  return { ...greetie, recipient: greetie.recipient ? { name: greetie.recipient.name } : null };
}

/** GET /greetie/{id}/info: the public summary. */
export async function greetieInfo(deps: Db_, id: string): Promise<GreetieInfo> {
  const row = await findGreetie(deps.db, id);
  if (!row) throw notFound('GREETIE_NOT_FOUND');
  const [gifts, media] = await Promise.all([giftsOf(deps.db, [id]), mediaOf(deps.db, [id])]);
  const thumbnail = media.filter((m) => m.role === 'thumbnail').at(-1);
  return {
    id: row.id,
    senderName: row.sender_name,
    recipientName: row.recipient_name,
    hasGifts: gifts.length > 0,
    // A draft's files are its sender's alone: the public summary shows none until it is sent.
    thumbnailUrl: thumbnail && row.status !== 'draft' ? mediaPath(thumbnail.storage_key) : null,
  };
}

// ---- The list ----

/** The cursor is opaque to clients: base64url of `[createdAt to the microsecond, id]`. */
export function encodeCursor(k: Keyset): string {
  return encodeKeysetCursor(k.at, k.id);
}

const EXACT_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function decodeCursor(cursor: string): Keyset {
  const keyset = decodeKeysetCursor(cursor, (at) => EXACT_TIME.test(at) && !Number.isNaN(Date.parse(at)));
  if (!keyset) throw new HttpError(400, 'INVALID_CURSOR', {}, [{ field: 'querystring.cursor', problem: 'cursor' }]);
  return { at: keyset.key, id: keyset.id };
}

/**
 * GET /greetie (and /mobileuser/greeties, /sentgreeties, /receivedgreeties with `which`): one
 * page, newest first, and the cursor of the next when there is one.
 */
export async function listGreeties(
  deps: DbClock,
  userId: string,
  query: { limit?: number; cursor?: string },
  which: 'all' | 'sent' | 'received' = 'all',
): Promise<{ items: Greetie[]; nextCursor: string | null; limit: number }> {
  const limit = query.limit ?? GREETIE_PAGE_DEFAULT;
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const mobileNumber = (await callerNumber(deps.db, userId)) ?? '';
  const page = await greetiePage(deps.db, { userId, mobileNumber, after, limit: limit + 1, which });
  const ids = page.slice(0, limit);
  const rows = new Map((await findGreeties(deps.db, ids.map((p) => p.id))).map((r) => [r.id, r]));
  // A row deleted between the two reads is left out; the cursor still follows the page's keyset.
  const items = await toGreeties(
    deps.db,
    ids.map((p) => rows.get(p.id)).filter((r): r is GreetieRow => r !== undefined),
    urlsFor(deps),
    mobileNumber || null,
  );
  const last = ids.at(-1);
  return { items, nextCursor: page.length > limit && last ? encodeCursor({ at: last.at, id: last.id }) : null, limit };
}

/**
 * GET /mobileuser/export: every greetie the caller sent (drafts included) and every one delivered
 * to their number, as GET /greetie/{id} shows them to the caller (codes only of vouchers they own).
 */
export async function greetiesForExport(deps: DbClock, userId: string): Promise<{ sent: Greetie[]; received: Greetie[] }> {
  const number = (await callerNumber(deps.db, userId)) ?? null;
  const sentRows = await findSentBy(deps.db, userId);
  const receivedRows = number ? await findDeliveredTo(deps.db, number) : [];
  const urlOf = urlsFor(deps);
  const [sent, received] = await Promise.all([toGreeties(deps.db, sentRows, urlOf, number), toGreeties(deps.db, receivedRows, urlOf, number)]);
  return { sent, received };
}
