import { freshIp, freshMobileNumber, readCode, signIn, type Session } from './common.ts';
import { exampleOf, fillPath, type Operation } from './openapi.ts';
import type { Req, Send } from './target.ts';

/**
 * The well-formed request the authorization matrix sends for an operation, built fresh for every
 * cell (visitor, owner, other) so one cell cannot use up what the next needs (a code, a refresh
 * token). The matrix adds the caller's Authorization header; a fixture never does.
 *
 * Operations without an entry get the request built from their schema (exampleOf). An operation
 * that names something owned (a greetie, a voucher) needs an entry here that creates the thing
 * as `ctx.owner` first and names it in the request (docs/decisions/060-access-declarations.md).
 */
export interface MatrixContext {
  send: Send;
  /** Signed in; owns what fixtures create. */
  owner: Session;
  /** Signed in as somebody else. */
  other: Session;
  /** Ids that exist (seeded merchants, products, the users). */
  knownIds: string[];
  /** Delivers a scheduled greetie now, as the delivery worker would (the suite runs without one). */
  deliver?: (greetieId: string) => Promise<void>;
  /**
   * Which cell the request is for. A fixture that must not use up the suite's users (deleting an
   * account) signs a fresh person in for the owner and other cells and sets their Authorization
   * header itself; the matrix keeps a header the fixture set.
   */
  caller?: 'visitor' | 'owner' | 'other';
}

export type Fixture = (ctx: MatrixContext) => Promise<Req>;

const jsonPost = (url: string, body: unknown): Req => ({
  method: 'POST',
  url,
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(body),
  remoteAddress: freshIp(),
});

/** Gives `who` a profile name: a sender needs one (/send and /startpayment are 409 SENDER_NAME_REQUIRED without). */
async function named(ctx: MatrixContext, who: Session): Promise<void> {
  const res = await ctx.send({ ...jsonPost('/api/mobileuser', { name: 'Anna Svensson' }), headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` } });
  if (res.status !== 200) throw new Error(`POST /api/mobileuser answered ${res.status}: ${res.body.slice(0, 200)}`);
}

/** A draft greetie of the owner's (to `recipient` when given): what the greetie fixtures name. The owner is named. */
async function ownersDraft(ctx: MatrixContext, body: Record<string, unknown> = {}): Promise<string> {
  await named(ctx, ctx.owner);
  const res = await ctx.send({
    ...jsonPost('/api/greetie', body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.owner.token}` },
  });
  if (res.status !== 200) throw new Error(`POST /api/greetie answered ${res.status}: ${res.body.slice(0, 200)}`);
  return (JSON.parse(res.body) as { id: string }).id;
}

/** A 1×1 PNG: the smallest photo (and overlay) the media calls take. */
const ONE_PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** A multipart/form-data upload of `file` to `url` (server/media). */
function upload(url: string, file = ONE_PIXEL_PNG): Req {
  const boundary = '----greetiefixture';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: 'POST', url, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload, remoteAddress: freshIp() };
}

/** The signed URL of a photo in a fresh draft of the owner's (what its sender is given). */
async function ownersMediaUrl(ctx: MatrixContext): Promise<string> {
  const req = upload(`/api/greetie/${await ownersDraft(ctx)}/media`);
  const res = await ctx.send({ ...req, headers: { ...req.headers, authorization: `Bearer ${ctx.owner.token}` } });
  if (res.status !== 200) throw new Error(`POST /api/greetie/{id}/media answered ${res.status}: ${res.body.slice(0, 200)}`);
  return (JSON.parse(res.body) as { media: { url: string } }).media.url;
}

/** A merchant that exists: the first one the public list shows. */
async function aMerchantId(ctx: MatrixContext): Promise<string> {
  const res = await ctx.send({ method: 'GET', url: '/api/merchant' });
  const list = res.status === 200 ? (JSON.parse(res.body) as { id: string }[]) : [];
  if (!list[0]) throw new Error(`no merchant to name (GET /api/merchant answered ${res.status})`);
  return list[0].id;
}

/** A fixed-price InStore product of the catalogue (payable: no code pool needed). */
async function aPayableProductId(ctx: MatrixContext): Promise<string> {
  const res = await ctx.send({ method: 'GET', url: '/api/merchant' });
  const merchants = res.status === 200 ? (JSON.parse(res.body) as { id: string }[]) : [];
  for (const m of merchants) {
    const r = await ctx.send({ method: 'GET', url: `/api/merchant/${m.id}/products` });
    const list = r.status === 200 ? (JSON.parse(r.body) as { id: string; source: string; price?: number | null }[]) : [];
    const p = list.find((x) => x.source !== 'Code' && typeof x.price === 'number');
    if (p) return p.id;
  }
  throw new Error(`no payable product to name (GET /api/merchant answered ${res.status})`);
}

/** A draft of the owner's with a recipient and one gift: what startpayment takes. */
async function ownersPayableDraft(ctx: MatrixContext): Promise<string> {
  await named(ctx, ctx.owner);
  const res = await ctx.send({
    ...jsonPost('/api/greetie/createv2', { recipient: { mobileNumber: ctx.other.mobileNumber }, gifts: [{ productId: await aPayableProductId(ctx) }] }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.owner.token}` },
  });
  if (res.status !== 200) throw new Error(`POST /api/greetie/createv2 answered ${res.status}: ${res.body.slice(0, 200)}`);
  return (JSON.parse(res.body) as { id: string }).id;
}

/** A draft of the owner's awaiting payment, and its pending payment's id. */
async function ownersPendingPayment(ctx: MatrixContext): Promise<{ greetieId: string; paymentId: string }> {
  const greetieId = await ownersPayableDraft(ctx);
  const res = await ctx.send({
    ...jsonPost(`/api/greetie/${greetieId}/startpayment`, { withdrawalConsent: true }),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.owner.token}` },
  });
  if (res.status !== 200) throw new Error(`POST /api/greetie/{id}/startpayment answered ${res.status}: ${res.body.slice(0, 200)}`);
  return { greetieId, paymentId: (JSON.parse(res.body) as { id: string }).id };
}

/** A fixed-price product of `source` from the catalogue (no amount to choose, no code pool needed). */
async function aFixedProductId(ctx: MatrixContext, source: 'InStore' | 'Charity'): Promise<string> {
  const res = await ctx.send({ method: 'GET', url: '/api/merchant' });
  const merchants = res.status === 200 ? (JSON.parse(res.body) as { id: string }[]) : [];
  for (const m of merchants) {
    const r = await ctx.send({ method: 'GET', url: `/api/merchant/${m.id}/products` });
    const list = r.status === 200 ? (JSON.parse(r.body) as { id: string; source: string; price?: number | null }[]) : [];
    const p = list.find((x) => x.source === source && typeof x.price === 'number');
    if (p) return p.id;
  }
  throw new Error(`no fixed-price ${source} product to name`);
}

/** A Charity product with a range (min/max) from the catalogue: one that takes most amounts. */
async function aCharityRangeProductId(ctx: MatrixContext): Promise<string> {
  const res = await ctx.send({ method: 'GET', url: '/api/merchant' });
  const merchants = res.status === 200 ? (JSON.parse(res.body) as { id: string }[]) : [];
  for (const m of merchants) {
    const r = await ctx.send({ method: 'GET', url: `/api/merchant/${m.id}/products` });
    const list = r.status === 200 ? (JSON.parse(r.body) as { id: string; source: string; minAmount?: number | null }[]) : [];
    const p = list.find((x) => x.source === 'Charity' && typeof x.minAmount === 'number');
    if (p) return p.id;
  }
  throw new Error('no Charity product with a range to name');
}

const bearer = (who: Session) => ({ 'content-type': 'application/json', authorization: `Bearer ${who.token}` });

/** A greetie from `from` to `to` with one gift, paid in the sandbox (scheduled: its voucher exists). */
async function paidGreetie(ctx: MatrixContext, from: Session, to: Session, source: 'InStore' | 'Charity' = 'InStore') {
  await named(ctx, from);
  const created = await ctx.send({
    ...jsonPost('/api/greetie/createv2', { recipient: { mobileNumber: to.mobileNumber }, gifts: [{ productId: await aFixedProductId(ctx, source) }] }),
    headers: bearer(from),
  });
  if (created.status !== 200) throw new Error(`POST /api/greetie/createv2 answered ${created.status}: ${created.body.slice(0, 200)}`);
  const greetie = JSON.parse(created.body) as { id: string; refId: string };
  const started = await ctx.send({ ...jsonPost(`/api/greetie/${greetie.id}/startpayment`, { withdrawalConsent: true }), headers: bearer(from) });
  if (started.status !== 200) throw new Error(`POST /api/greetie/{id}/startpayment answered ${started.status}: ${started.body.slice(0, 200)}`);
  const settled = await ctx.send(jsonPost(`/api/sandbox/payments/${(JSON.parse(started.body) as { id: string }).id}`, { outcome: 'paid' }));
  if (settled.status !== 200) throw new Error(`POST /api/sandbox/payments/{id} answered ${settled.status}: ${settled.body.slice(0, 200)}`);
  return greetie;
}

/** As paidGreetie, then delivered: the recipient now holds its voucher. */
async function deliveredGreetie(ctx: MatrixContext, from: Session, to: Session, source: 'InStore' | 'Charity' = 'InStore') {
  const greetie = await paidGreetie(ctx, from, to, source);
  if (!ctx.deliver) throw new Error('the matrix context cannot deliver a greetie (MatrixContext.deliver)');
  await ctx.deliver(greetie.id);
  return greetie;
}

/** A voucher of the owner's (a greetie from the other caller, delivered to the owner) and its merchant's code. */
async function ownersVoucher(ctx: MatrixContext, source: 'InStore' | 'Charity' = 'InStore'): Promise<{ id: string; merchantCode: string }> {
  const greetie = await deliveredGreetie(ctx, ctx.other, ctx.owner, source);
  const res = await ctx.send({ method: 'GET', url: `/api/greetie/${greetie.id}/vouchers`, headers: bearer(ctx.owner) });
  const voucher = res.status === 200 ? (JSON.parse(res.body) as { id: string; merchant: { id: string } }[])[0] : undefined;
  if (!voucher) throw new Error(`GET /api/greetie/{id}/vouchers answered ${res.status}: ${res.body.slice(0, 200)}`);
  const codes = await ctx.send({ method: 'GET', url: '/api/sandbox/merchants' });
  const merchant = (JSON.parse(codes.body) as { id: string; merchantCode: string }[]).find((m) => m.id === voucher.merchant.id);
  if (!merchant) throw new Error('the voucher\'s merchant has no demo code (GET /api/sandbox/merchants)');
  return { id: voucher.id, merchantCode: merchant.merchantCode };
}

/**
 * The merchant portal's owner: the sandbox's owner of the demo merchant that sells only codes
 * (no fixture's till voucher depends on its merchant code, which a portal fixture rotates),
 * signed in once per run and kept.
 */
const DEMO_PORTAL_MERCHANT = '4d0e1a2b-0000-4000-8000-000000000010';
const portalOwners = new WeakMap<Send, Promise<Session>>();

function portalOwner(send: Send): Promise<Session> {
  let session = portalOwners.get(send);
  if (!session) {
    session = (async () => {
      const res = await send({ method: 'GET', url: '/api/sandbox/merchants' });
      const demo = (JSON.parse(res.body) as { id: string; ownerNumber: string }[]).find((m) => m.id === DEMO_PORTAL_MERCHANT);
      if (!demo) throw new Error(`the demo merchant ${DEMO_PORTAL_MERCHANT} has no owner (GET /api/sandbox/merchants answered ${res.status})`);
      return signIn(send, demo.ownerNumber);
    })();
    portalOwners.set(send, session);
  }
  return session;
}

/**
 * A portal call about the demo merchant: the owner cell is its owner (the fixture sets the
 * header); the other caller works for no merchant and gets 404, the visitor 401.
 */
async function portalCall(ctx: MatrixContext, method: 'GET' | 'POST', path: string): Promise<Req> {
  const req: Req = method === 'POST' ? jsonPost(`/api/portal/merchants/${DEMO_PORTAL_MERCHANT}${path}`, {}) : { method, url: `/api/portal/merchants/${DEMO_PORTAL_MERCHANT}${path}`, remoteAddress: freshIp() };
  if (ctx.caller !== 'owner') return req;
  const owner = await portalOwner(ctx.send);
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${owner.token}` } };
}

/** The owner of a demo merchant (from GET /api/sandbox/merchants), signed in once per run and merchant. */
const merchantOwners = new WeakMap<Send, Map<string, Promise<Session>>>();

function merchantOwner(send: Send, merchantId: string): Promise<Session> {
  let byMerchant = merchantOwners.get(send);
  if (!byMerchant) merchantOwners.set(send, (byMerchant = new Map()));
  let session = byMerchant.get(merchantId);
  if (!session) {
    session = (async () => {
      const res = await send({ method: 'GET', url: '/api/sandbox/merchants' });
      const demo = (JSON.parse(res.body) as { id: string; ownerNumber: string }[]).find((m) => m.id === merchantId);
      if (!demo) throw new Error(`the demo merchant ${merchantId} has no owner (GET /api/sandbox/merchants answered ${res.status})`);
      return signIn(send, demo.ownerNumber);
    })();
    byMerchant.set(merchantId, session);
  }
  return session;
}

/**
 * A till call by QR token (scan, redeem, undo): the owner's fresh InStore voucher shows its QR
 * (GET /voucher/{id}/qr); the owner cell is that voucher's merchant's owner at the till (the
 * fixture sets the header), the other caller works for no merchant (404), the visitor 401.
 * `undo`: the token is redeemed first by the merchant's owner, and its redemption is undone.
 */
async function tillCall(ctx: MatrixContext, call: 'scan' | 'redeem' | 'undo'): Promise<Req> {
  const greetie = await deliveredGreetie(ctx, ctx.other, ctx.owner);
  const list = await ctx.send({ method: 'GET', url: `/api/greetie/${greetie.id}/vouchers`, headers: bearer(ctx.owner) });
  const voucher = list.status === 200 ? (JSON.parse(list.body) as { id: string; merchant: { id: string } }[])[0] : undefined;
  if (!voucher) throw new Error(`GET /api/greetie/{id}/vouchers answered ${list.status}: ${list.body.slice(0, 200)}`);
  const qr = await ctx.send({ method: 'GET', url: `/api/voucher/${voucher.id}/qr`, headers: bearer(ctx.owner) });
  if (qr.status !== 200) throw new Error(`GET /api/voucher/{id}/qr answered ${qr.status}: ${qr.body.slice(0, 200)}`);
  const { token } = JSON.parse(qr.body) as { token: string };
  const merchantOwnerSession = await merchantOwner(ctx.send, voucher.merchant.id);
  const base = `/api/portal/merchants/${voucher.merchant.id}`;
  let req: Req;
  if (call === 'undo') {
    const redeemed = await ctx.send({ ...jsonPost(`${base}/redeem`, { token }), headers: bearer(merchantOwnerSession) });
    const redemption = redeemed.status === 200 ? (JSON.parse(redeemed.body) as { redemptions: { id: string }[] }).redemptions.at(-1) : undefined;
    if (!redemption) throw new Error(`POST ${base}/redeem answered ${redeemed.status}: ${redeemed.body.slice(0, 200)}`);
    req = jsonPost(`${base}/redemptions/${redemption.id}/undo`, {});
  } else {
    req = jsonPost(`${base}/${call}`, { token });
  }
  if (ctx.caller !== 'owner') return req;
  return { ...req, headers: { ...req.headers, authorization: `Bearer ${merchantOwnerSession.token}` } };
}

export const FIXTURES: Record<string, Fixture> = {
  'POST /api/auth/verificationcode': async () => jsonPost('/api/auth/verificationcode', { mobileNumber: freshMobileNumber() }),

  'POST /api/auth/login': async ({ send }) => {
    const mobileNumber = freshMobileNumber();
    const ip = freshIp();
    const v = await send({ ...jsonPost('/api/auth/verificationcode', { mobileNumber }), remoteAddress: ip });
    const { token } = JSON.parse(v.body) as { token: string };
    const code = await readCode(send, mobileNumber);
    return { ...jsonPost('/api/auth/login', { token, code, deviceId: '00000000-0000-0000-0000-000000000000' }), remoteAddress: ip };
  },

  // A live session's pair, in the query as API.md says (the caller's own header plays no part).
  'POST /api/auth/refresh': async ({ send }) => {
    const s = await signIn(send);
    return {
      method: 'POST',
      url: `/api/auth/refresh?token=${encodeURIComponent(s.token)}&refreshToken=${encodeURIComponent(s.refreshToken)}`,
      remoteAddress: freshIp(),
    };
  },

  'POST /api/auth/logout': async ({ send }) => {
    const s = await signIn(send);
    return jsonPost('/api/auth/logout', { refreshToken: s.refreshToken });
  },

  // Public and parameterless: the seller of the settings.
  'GET /api/seller': async () => ({ method: 'GET', url: '/api/seller', remoteAddress: freshIp() }),

  'GET /api/merchant/{id}': async (ctx) => ({ method: 'GET', url: `/api/merchant/${await aMerchantId(ctx)}` }),
  'GET /api/merchant/{id}/products': async (ctx) => ({ method: 'GET', url: `/api/merchant/${await aMerchantId(ctx)}/products` }),

  // One's own profile: the owner's id (the other caller names it too, and gets 404).
  'GET /api/mobileuser/{id}': async ({ owner }) => ({ method: 'GET', url: `/api/mobileuser/${owner.userId}`, remoteAddress: freshIp() }),
  'POST /api/mobileuser/{id}': async ({ owner }) => jsonPost(`/api/mobileuser/${owner.userId}`, { name: 'Anna Svensson', allowMarketing: false }),
  'POST /api/mobileuser': async () => jsonPost('/api/mobileuser', { name: 'Anna Svensson' }),
  // The caller's own lists and export: nothing named, the same answer for owner and other.
  'GET /api/mobileuser/greeties': async () => ({ method: 'GET', url: '/api/mobileuser/greeties?limit=5', remoteAddress: freshIp() }),
  'GET /api/mobileuser/sentgreeties': async () => ({ method: 'GET', url: '/api/mobileuser/sentgreeties?limit=5', remoteAddress: freshIp() }),
  'GET /api/mobileuser/receivedgreeties': async () => ({ method: 'GET', url: '/api/mobileuser/receivedgreeties?limit=5', remoteAddress: freshIp() }),
  'GET /api/mobileuser/export': async () => ({ method: 'GET', url: '/api/mobileuser/export', remoteAddress: freshIp() }),
  // Deleting one's account: a fresh person each signed-in cell, so the suite's users stay.
  'DELETE /api/mobileuser/remove': async ({ send, caller }) => {
    const req: Req = { method: 'DELETE', url: '/api/mobileuser/remove', remoteAddress: freshIp() };
    if (caller === 'visitor') return req;
    const fresh = await signIn(send);
    return { ...req, headers: { authorization: `Bearer ${fresh.token}` } };
  },

  // A fresh draft of the owner's for every cell (a delete or a send uses one up); the other caller
  // names it too and gets 404, the visitor 401.
  'GET /api/greetie/{id}': async (ctx) => ({ method: 'GET', url: `/api/greetie/${await ownersDraft(ctx)}`, remoteAddress: freshIp() }),
  'PATCH /api/greetie/{id}': async (ctx) => ({ ...jsonPost(`/api/greetie/${await ownersDraft(ctx)}`, { message: 'Grattis!' }), method: 'PATCH' }),
  'DELETE /api/greetie/{id}': async (ctx) => ({ method: 'DELETE', url: `/api/greetie/${await ownersDraft(ctx)}`, remoteAddress: freshIp() }),
  'GET /api/greetie/{id}/info': async (ctx) => ({ method: 'GET', url: `/api/greetie/${await ownersDraft(ctx)}/info`, remoteAddress: freshIp() }),
  'POST /api/greetie/{id}/send': async (ctx) =>
    jsonPost(`/api/greetie/${await ownersDraft(ctx, { recipient: { mobileNumber: ctx.other.mobileNumber } })}/send`, {}),

  // Payments: a fresh payable draft, or one with a pending payment, for every cell.
  'POST /api/greetie/{id}/startpayment': async (ctx) => jsonPost(`/api/greetie/${await ownersPayableDraft(ctx)}/startpayment`, { withdrawalConsent: true }),
  'GET /api/greetie/{id}/payment': async (ctx) => ({
    method: 'GET',
    url: `/api/greetie/${(await ownersPendingPayment(ctx)).greetieId}/payment`,
    remoteAddress: freshIp(),
  }),
  // A paid payment: the owner's stream answers it at once and ends (an open one would stay open).
  'GET /api/greetie/{id}/payment/events': async (ctx) => ({
    method: 'GET',
    url: `/api/greetie/${(await paidGreetie(ctx, ctx.owner, ctx.other)).id}/payment/events`,
    remoteAddress: freshIp(),
  }),
  'POST /api/sandbox/payments/{paymentId}': async (ctx) => jsonPost(`/api/sandbox/payments/${(await ownersPendingPayment(ctx)).paymentId}`, { outcome: 'paid' }),

  // Uploads to a fresh draft of the owner's; the other caller names it and gets 404.
  'POST /api/greetie/{id}/media': async (ctx) => upload(`/api/greetie/${await ownersDraft(ctx)}/media`),
  'POST /api/greetie/{id}/mediaoverlay': async (ctx) => upload(`/api/greetie/${await ownersDraft(ctx)}/mediaoverlay`),
  'POST /api/greetie/{id}/picture': async (ctx) => upload(`/api/greetie/${await ownersDraft(ctx)}/picture`),
  // A draft's file by the signed URL its sender was given: whoever holds the URL reads it.
  'GET /api/media/{storageKey}': async (ctx) => ({ method: 'GET', url: await ownersMediaUrl(ctx), remoteAddress: freshIp() }),

  // Vouchers: a fresh voucher of the owner's for every cell (a greetie from the other
  // caller, paid and delivered); the other caller names it too and gets 404.
  'GET /api/voucher/{id}': async (ctx) => ({ method: 'GET', url: `/api/voucher/${(await ownersVoucher(ctx)).id}`, remoteAddress: freshIp() }),
  'POST /api/voucher/redeem': async (ctx) => {
    const v = await ownersVoucher(ctx);
    return jsonPost('/api/voucher/redeem', { voucherId: v.id, merchantCode: v.merchantCode });
  },
  'GET /api/voucher/{id}/qr': async (ctx) => ({ method: 'GET', url: `/api/voucher/${(await ownersVoucher(ctx)).id}/qr`, remoteAddress: freshIp() }),
  'POST /api/voucher/redeemed': async (ctx) => jsonPost(`/api/voucher/redeemed?id=${(await ownersVoucher(ctx, 'Charity')).id}`, {}),
  // Undo: the owner's voucher redeemed just now (its redemption is minutes old at most).
  'POST /api/voucher/{id}/redemptions/{redemptionId}/undo': async (ctx) => {
    const v = await ownersVoucher(ctx);
    const res = await ctx.send({ ...jsonPost('/api/voucher/redeem', { voucherId: v.id, merchantCode: v.merchantCode }), headers: bearer(ctx.owner) });
    const redemption = res.status === 200 ? (JSON.parse(res.body) as { redemptions: { id: string }[] }).redemptions[0] : undefined;
    if (!redemption) throw new Error(`POST /api/voucher/redeem answered ${res.status}: ${res.body.slice(0, 200)}`);
    return jsonPost(`/api/voucher/${v.id}/redemptions/${redemption.id}/undo`, { merchantCode: v.merchantCode });
  },
  // Donate: the owner's unused InStore voucher to a charity whose range holds its amount.
  'POST /api/voucher/{id}/donate': async (ctx) => {
    const v = await ownersVoucher(ctx);
    return jsonPost(`/api/voucher/${v.id}/donate`, { productId: await aCharityRangeProductId(ctx) });
  },
  // Viewing: the owner's greetie to the other caller, delivered (its reference is all anyone needs).
  'GET /api/greetie/byRef': async (ctx) => ({
    method: 'GET',
    url: `/api/greetie/byRef?refId=${encodeURIComponent((await deliveredGreetie(ctx, ctx.owner, ctx.other)).refId)}`,
    remoteAddress: freshIp(),
  }),
  // The owner is the recipient here: a greetie from the other caller, delivered to the owner.
  'POST /api/greetie/{id}/markasviewed': async (ctx) => jsonPost(`/api/greetie/${(await deliveredGreetie(ctx, ctx.other, ctx.owner)).id}/markasviewed`, {}),
  // The owner is the sender: paid, not yet delivered (so the other caller, its recipient, gets 404).
  'GET /api/greetie/{id}/vouchers': async (ctx) => ({
    method: 'GET',
    url: `/api/greetie/${(await paidGreetie(ctx, ctx.owner, ctx.other)).id}/vouchers`,
    remoteAddress: freshIp(),
  }),

  // After delivery (the owner is the sender, the other caller its recipient, who gets 404 like
  // anybody but the sender): a fresh paid greetie delivered to the other caller for every cell.
  'POST /api/greetie/{id}/cancel': async (ctx) => jsonPost(`/api/greetie/${(await deliveredGreetie(ctx, ctx.owner, ctx.other)).id}/cancel`, {}),
  'POST /api/greetie/{id}/resend': async (ctx) => jsonPost(`/api/greetie/${(await deliveredGreetie(ctx, ctx.owner, ctx.other)).id}/resend`, {}),
  'POST /api/greetie/{id}/recipient': async (ctx) =>
    jsonPost(`/api/greetie/${(await deliveredGreetie(ctx, ctx.owner, ctx.other)).id}/recipient`, { mobileNumber: freshMobileNumber() }),
  // Thanks: the owner is the recipient here (a greetie from the other caller, delivered to the owner).
  'POST /api/greetie/{id}/thanks': async (ctx) => jsonPost(`/api/greetie/${(await deliveredGreetie(ctx, ctx.other, ctx.owner)).id}/thanks`, { message: 'Tack!' }),
  // A pending sandbox refund: the owner's delivered greetie cancelled, its refund waiting.
  'POST /api/sandbox/refunds/{refundId}': async (ctx) => {
    const g = await deliveredGreetie(ctx, ctx.owner, ctx.other);
    const cancelled = await ctx.send({ ...jsonPost(`/api/greetie/${g.id}/cancel`, {}), headers: bearer(ctx.owner) });
    if (cancelled.status !== 200) throw new Error(`POST /api/greetie/{id}/cancel answered ${cancelled.status}: ${cancelled.body.slice(0, 200)}`);
    const pending = await ctx.send({ method: 'GET', url: '/api/sandbox/refunds' });
    const refund = (JSON.parse(pending.body) as { id: string; greetieId: string }[]).find((r) => r.greetieId === g.id);
    if (!refund) throw new Error(`no pending refund for the cancelled greetie (GET /api/sandbox/refunds answered ${pending.status})`);
    return jsonPost(`/api/sandbox/refunds/${refund.id}`, { outcome: 'paid' });
  },

  // Notifications and push (server/notification): about the caller themselves, so every signed-in
  // caller gets the same answer; a fresh token or endpoint per cell.
  'GET /api/mobileuser/notifications': async () => ({ method: 'GET', url: '/api/mobileuser/notifications?limit=5', remoteAddress: freshIp() }),
  'POST /api/mobileuser/notifications/read': async () => jsonPost('/api/mobileuser/notifications/read', {}),
  'POST /api/mobileuser/setExpoToken': async () => ({
    method: 'POST',
    url: `/api/mobileuser/setExpoToken?deviceId=matrix-device&token=${encodeURIComponent(`ExponentPushToken[matrix${freshIp().replace(/\D/g, '')}]`)}`,
    remoteAddress: freshIp(),
  }),
  'POST /api/mobileuser/removeExpoToken': async () => ({ method: 'POST', url: '/api/mobileuser/removeExpoToken?deviceId=matrix-device', remoteAddress: freshIp() }),
  'GET /api/mobileuser/webpush': async () => ({ method: 'GET', url: '/api/mobileuser/webpush', remoteAddress: freshIp() }),
  'POST /api/mobileuser/webpush': async () =>
    jsonPost('/api/mobileuser/webpush', {
      endpoint: `https://fcm.googleapis.com/fcm/send/${freshIp().replace(/\D/g, '')}`,
      expirationTime: null,
      keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' },
    }),
  'DELETE /api/mobileuser/webpush': async () => ({ method: 'DELETE', url: `/api/mobileuser/webpush?endpoint=${encodeURIComponent('https://fcm.googleapis.com/fcm/send/gone')}`, remoteAddress: freshIp() }),
  // The merchant portal (server/portal): the demo merchant's owner, somebody else, nobody.
  'GET /api/portal/merchants/{id}/summary': async (ctx) => portalCall(ctx, 'GET', '/summary?from=2026-11-01&to=2026-12-01'),
  'GET /api/portal/merchants/{id}/redemptions': async (ctx) => portalCall(ctx, 'GET', '/redemptions?limit=5'),
  'GET /api/portal/merchants/{id}/redemptions.csv': async (ctx) => portalCall(ctx, 'GET', '/redemptions.csv'),
  'POST /api/portal/merchants/{id}/code': async (ctx) => portalCall(ctx, 'POST', '/code'),
  // Till mode by the voucher's QR: the voucher's merchant's owner, somebody else, nobody.
  'POST /api/portal/merchants/{id}/scan': async (ctx) => tillCall(ctx, 'scan'),
  'POST /api/portal/merchants/{id}/redeem': async (ctx) => tillCall(ctx, 'redeem'),
  'POST /api/portal/merchants/{id}/redemptions/{redemptionId}/undo': async (ctx) => tillCall(ctx, 'undo'),
  'GET /api/sandbox/push': async ({ owner }) => ({ method: 'GET', url: `/api/sandbox/push?userId=${owner.userId}`, remoteAddress: freshIp() }),
};

/** The request for `op`: its fixture, or one built from the schema. */
export async function requestFor(op: Operation, ctx: MatrixContext): Promise<Req> {
  const fixture = FIXTURES[op.key];
  if (fixture) return fixture(ctx);
  const params = Object.fromEntries(op.pathParams.map((p) => [p.name, String(exampleOf(p.schema))]));
  const query = op.queryParams
    .filter((p) => p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(exampleOf(p.schema)))}`)
    .join('&');
  const req: Req = { method: op.method, url: fillPath(op.path, params) + (query ? `?${query}` : ''), remoteAddress: freshIp() };
  if (op.body) {
    req.headers = { 'content-type': 'application/json' };
    req.payload = JSON.stringify(exampleOf(op.body) ?? {});
  }
  return req;
}
