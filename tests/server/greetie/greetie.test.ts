import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import { Greetie, GreetieInfo, type ContentElement } from '../../../contract/greetie.ts';
import { call, catalogue, greetieTables, greetieTestApp, mediaRow, person, setStatus, type Catalogue, type Person } from './support.ts';

/**
 * Greeties on real PostgreSQL (API.md "Greetie"): every call, and every refusal answered 4xx in
 * the error shape with nothing changed.
 */

type T = Awaited<ReturnType<typeof greetieTestApp>>;
let t: T;
let products: Catalogue;
let alice: Person;
let bob: Person;
let carol: Person;

beforeAll(async () => {
  t = await greetieTestApp();
  products = await catalogue(t.db.db);
  alice = await person(t.app);
  bob = await person(t.app);
  carol = await person(t.app);
});
afterAll(async () => {
  await t.close();
});

/** An element placed mid-frame; deliberately loosely typed, so refusals can be built too. */
const el = (e: Record<string, unknown> & { type: string; value: string }) =>
  ({ x: 0.5, y: 0.5, scale: 1, rotation: 0, ...e }) as unknown as ContentElement;

async function draft(who: Person, body: Record<string, unknown> = {}, url = '/api/greetie'): Promise<Greetie> {
  const res = await call(t.app, who, 'POST', url, body);
  expect(res.statusCode, res.body).toBe(200);
  const g = res.json() as Greetie;
  expect(Value.Check(Greetie, g), JSON.stringify(g)).toBe(true);
  return g;
}

/** Answers `status` with `code`, and leaves every greetie row as it was. */
async function refused(send: () => Promise<{ statusCode: number; json: () => unknown }>, status: number, code: string) {
  const before = await greetieTables(t.db.db);
  const res = await send();
  const body = res.json() as { code: string; message: string };
  expect(res.statusCode, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(0);
  expect(await greetieTables(t.db.db)).toBe(before);
  return body;
}

describe('POST /api/greetie: a draft', () => {
  it('starts with nothing: a draft of the caller, no recipient, no media, no gifts, an unguessable refId', async () => {
    const g = await draft(alice);
    expect(g).toMatchObject({
      status: 'draft',
      recipient: null,
      message: '',
      content: [],
      media: null,
      gifts: [],
      vouchers: [],
      total: 0,
      deliverAt: null,
      deliveredAt: null,
      viewed: false,
      viewedAt: null,
    });
    expect(g.refId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(g.createdAt).toBe(t.clock.now().toISOString());
    const other = await draft(alice);
    expect(other.refId).not.toBe(g.refId);
    const { rows } = await sql<{ id: string }>`SELECT id FROM mobile_user WHERE mobile_number = ${alice.mobileNumber}`.execute(t.db.db);
    expect(g.sender).toEqual({ id: rows[0]!.id, name: 'Testperson' });
  });

  it('takes a recipient in any Swedish form (stored E.164), a trimmed name, a message, content and a delivery time', async () => {
    const deliverAt = new Date(t.clock.ms + 24 * 3600_000).toISOString();
    const content = [
      el({ type: 'text', value: 'Grattis!', style: { font: 'handwriting', color: '#ED5AA4' } }),
      el({ type: 'emoji', value: '🎉', x: 0, y: 1, scale: 0.1, rotation: -360 }),
      el({ type: 'emoji', value: '👍🏽' }),
      el({ type: 'emoji', value: '🇸🇪' }),
      el({ type: 'emoji', value: '👨‍👩‍👧' }),
      el({ type: 'sticker', value: 'heart', x: 1, y: 0, scale: 10, rotation: 360, id: 'el-1' }),
      el({ type: 'lottie', value: 'confetti' }),
    ];
    const g = await draft(alice, {
      recipient: { mobileNumber: '070-123 45 67', name: '  Bob  ' },
      message: 'Hej Bob!',
      content,
      deliverAt,
    });
    expect(g.recipient).toEqual({ name: 'Bob', mobileNumber: '+46701234567' });
    expect(g.message).toBe('Hej Bob!');
    expect(g.content).toEqual(content);
    expect(g.deliverAt).toBe(deliverAt);
    for (const form of ['+46701234567', '0046701234567', '0701234567']) {
      expect((await draft(alice, { recipient: { mobileNumber: form } })).recipient).toEqual({ name: null, mobileNumber: '+46701234567' });
    }
  });

  it('sending to oneself is allowed', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: alice.mobileNumber } });
    expect(g.recipient?.mobileNumber).toBe(alice.mobileNumber);
  });

  it('needs a signed-in caller (401)', async () => {
    await refused(() => call(t.app, undefined, 'POST', '/api/greetie', {}), 401, 'UNAUTHORIZED');
  });

  const bad: [string, Record<string, unknown>, string][] = [
    ['an unknown content type', { content: [el({ type: 'video', value: 'x' })] }, 'VALIDATION_FAILED'],
    ['x outside 0..1', { content: [el({ type: 'emoji', value: '🎉', x: 1.5 })] }, 'VALIDATION_FAILED'],
    ['y below 0', { content: [el({ type: 'emoji', value: '🎉', y: -0.1 })] }, 'VALIDATION_FAILED'],
    ['scale below 0.1', { content: [el({ type: 'emoji', value: '🎉', scale: 0.05 })] }, 'VALIDATION_FAILED'],
    ['scale above 10', { content: [el({ type: 'emoji', value: '🎉', scale: 11 })] }, 'VALIDATION_FAILED'],
    ['rotation past 360', { content: [el({ type: 'emoji', value: '🎉', rotation: 361 })] }, 'VALIDATION_FAILED'],
    ['x as a string', { content: [el({ type: 'emoji', value: '🎉', x: 'left' })] }, 'VALIDATION_FAILED'],
    ['a sticker not in the catalogue', { content: [el({ type: 'sticker', value: 'unicorn' })] }, 'VALIDATION_FAILED'],
    ['an animation not in the catalogue', { content: [el({ type: 'lottie', value: 'https://evil.example/a.json' })] }, 'VALIDATION_FAILED'],
    ['31 elements', { content: Array.from({ length: 31 }, () => el({ type: 'emoji', value: '🎉' })) }, 'VALIDATION_FAILED'],
    ['a 201-character text', { content: [el({ type: 'text', value: 'x'.repeat(201) })] }, 'VALIDATION_FAILED'],
    ['an empty text', { content: [el({ type: 'text', value: '   ' })] }, 'VALIDATION_FAILED'],
    ['a font not in the theme', { content: [el({ type: 'text', value: 'Hej', style: { font: 'comic' } })] }, 'VALIDATION_FAILED'],
    ['a colour not in the theme', { content: [el({ type: 'text', value: 'Hej', style: { color: '#123456' } })] }, 'VALIDATION_FAILED'],
    ['an unknown element field', { content: [{ ...el({ type: 'emoji', value: '🎉' }), onclick: 'x' }] }, 'VALIDATION_FAILED'],
    ['an element without a position', { content: [{ type: 'emoji', value: '🎉', scale: 1, rotation: 0 }] }, 'VALIDATION_FAILED'],
    ['an emoji that is letters', { content: [el({ type: 'emoji', value: 'abc' })] }, 'CONTENT_EMOJI_INVALID'],
    ['an emoji that is a digit', { content: [el({ type: 'emoji', value: '7' })] }, 'CONTENT_EMOJI_INVALID'],
    ['a picture not uploaded to this greetie', { content: [el({ type: 'picture', value: '/api/media/AAAAAAAAAAAAAAAAAAAAAA.jpg' })] }, 'CONTENT_PICTURE_UNKNOWN'],
    ['a picture from elsewhere', { content: [el({ type: 'picture', value: 'https://evil.example/x.jpg' })] }, 'VALIDATION_FAILED'],
    ['a text with a NUL', { content: [el({ type: 'text', value: 'a\u0000b' })] }, 'TEXT_INVALID_CHARACTERS'],
    ['a text with a lone surrogate', { content: [el({ type: 'text', value: 'a\ud800b' })] }, 'TEXT_INVALID_CHARACTERS'],
    ['not a mobile number', { recipient: { mobileNumber: '12345' } }, 'INVALID_MOBILE_NUMBER'],
    ['a landline', { recipient: { mobileNumber: '08-123 456 78' } }, 'INVALID_MOBILE_NUMBER'],
    ['a foreign number', { recipient: { mobileNumber: '+4791234567' } }, 'INVALID_MOBILE_NUMBER'],
    ['a recipient without a number', { recipient: { name: 'Bob' } }, 'VALIDATION_FAILED'],
    ['a 101-character name', { recipient: { mobileNumber: '0701234567', name: 'x'.repeat(101) } }, 'NAME_TOO_LONG'],
    ['a 1001-character name', { recipient: { mobileNumber: '0701234567', name: 'x'.repeat(1001) } }, 'VALIDATION_FAILED'],
    // The recipient's name follows the one name rule (contract/name.ts).
    ['a name with a link', { recipient: { mobileNumber: '0701234567', name: 'Vinst! https://evil.example' } }, 'NAME_HAS_LINK'],
    ['a name with www.', { recipient: { mobileNumber: '0701234567', name: 'Bob www.x' } }, 'NAME_HAS_LINK'],
    ['a name that is a domain', { recipient: { mobileNumber: '0701234567', name: 'greetie-support.se' } }, 'NAME_HAS_LINK'],
    ['a name with a phone number', { recipient: { mobileNumber: '0701234567', name: 'Ring 070-123 45 67' } }, 'NAME_HAS_PHONE_NUMBER'],
    ['a name with a right-to-left override', { recipient: { mobileNumber: '0701234567', name: 'Bob\u202egpj.exe' } }, 'NAME_INVALID_CHARACTERS'],
    ['a name with a zero-width space', { recipient: { mobileNumber: '0701234567', name: 'B\u200bob' } }, 'NAME_INVALID_CHARACTERS'],
    ['a name with a byte order mark', { recipient: { mobileNumber: '0701234567', name: '\ufeffBob' } }, 'NAME_INVALID_CHARACTERS'],
    ['a 1001-character message', { message: 'x'.repeat(1001) }, 'VALIDATION_FAILED'],
    ['a message with a NUL', { message: 'a\u0000' }, 'TEXT_INVALID_CHARACTERS'],
    ['deliverAt that is not a time', { deliverAt: 'tomorrow' }, 'VALIDATION_FAILED'],
    ['a client-given total', { total: 1 }, 'VALIDATION_FAILED'],
    ['gifts on POST /greetie (createv2 takes them)', { gifts: [] }, 'VALIDATION_FAILED'],
  ];
  for (const [name, body, code] of bad) {
    it(`refuses ${name} (400 ${code}), writing nothing`, async () => {
      const res = await refused(() => call(t.app, alice, 'POST', '/api/greetie', body), 400, code);
      if (code !== 'VALIDATION_FAILED') expect(res).toHaveProperty('details');
    });
  }

  it('refuses deliverAt in the past, now, or more than a year ahead; takes one just inside a year', async () => {
    const at = (ms: number) => new Date(t.clock.ms + ms).toISOString();
    await refused(() => call(t.app, alice, 'POST', '/api/greetie', { deliverAt: at(-60_000) }), 400, 'DELIVER_AT_PAST');
    await refused(() => call(t.app, alice, 'POST', '/api/greetie', { deliverAt: at(0) }), 400, 'DELIVER_AT_PAST');
    await refused(() => call(t.app, alice, 'POST', '/api/greetie', { deliverAt: at(366 * 86400_000) }), 400, 'DELIVER_AT_TOO_FAR');
    const g = await draft(alice, { deliverAt: at(364 * 86400_000) });
    expect(g.deliverAt).toBe(at(364 * 86400_000));
  });

  it('answers in English when the request prefers it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/greetie',
      headers: { ...alice.auth, 'accept-language': 'en' },
      payload: { recipient: { mobileNumber: '12345' } },
    });
    expect(res.json()).toMatchObject({ code: 'INVALID_MOBILE_NUMBER', message: expect.stringContaining('Swedish mobile number') });
    const sv = await call(t.app, alice, 'POST', '/api/greetie', { deliverAt: new Date(t.clock.ms - 1000).toISOString() });
    expect(sv.json().message).toContain('Leveranstiden');
  });
});

describe('POST /api/greetie/createv2: a draft with gifts', () => {
  const v2 = (body: Record<string, unknown>) => call(t.app, alice, 'POST', '/api/greetie/createv2', body);

  it('prices every gift on the server: a fixed price, a chosen amount; the total is their sum', async () => {
    const g = await draft(alice, { gifts: [{ productId: products.fixed }, { productId: products.value, amount: 25000 }, { productId: products.fixed, amount: 14900 }] }, '/api/greetie/createv2');
    expect(g.gifts.map((x) => [x.productId, x.amount])).toEqual([
      [products.fixed, 14900],
      [products.value, 25000],
      [products.fixed, 14900],
    ]);
    expect(g.gifts[0]).toMatchObject({ productName: 'Fika för två', merchantName: 'Testkaféet', source: 'InStore' });
    expect(g.total).toBe(14900 + 25000 + 14900);
    expect(g.status).toBe('draft');
  });

  it('takes no gifts at all, and the same fields as POST /greetie', async () => {
    const g = await draft(alice, { message: 'Hej', gifts: [] }, '/api/greetie/createv2');
    expect(g).toMatchObject({ message: 'Hej', gifts: [], total: 0 });
  });

  it('takes a value voucher at its exact min and max', async () => {
    const g = await draft(alice, { gifts: [{ productId: products.value, amount: 10000 }, { productId: products.value, amount: 100000 }] }, '/api/greetie/createv2');
    expect(g.total).toBe(110000);
  });

  const badGifts: [string, unknown[], string, string][] = [
    ['an inactive product', [{ productId: 'inactiveProduct' }], 'GIFT_PRODUCT_UNAVAILABLE', 'body.gifts.0.productId'],
    ["an inactive merchant's product", [{ productId: 'fixed' }, { productId: 'inactiveMerchantProduct' }], 'GIFT_PRODUCT_UNAVAILABLE', 'body.gifts.1.productId'],
    ['a product that does not exist', [{ productId: '00000000-0000-4000-8000-000000000000' }], 'GIFT_PRODUCT_UNAVAILABLE', 'body.gifts.0.productId'],
    ['a value voucher without an amount', [{ productId: 'value' }], 'GIFT_AMOUNT_REQUIRED', 'body.gifts.0.amount'],
    ['a value voucher below its min', [{ productId: 'value', amount: 9999 }], 'GIFT_AMOUNT_OUT_OF_RANGE', 'body.gifts.0.amount'],
    ['a value voucher above its max', [{ productId: 'value', amount: 100001 }], 'GIFT_AMOUNT_OUT_OF_RANGE', 'body.gifts.0.amount'],
    ['another amount for a fixed price', [{ productId: 'fixed', amount: 100 }], 'GIFT_AMOUNT_FIXED', 'body.gifts.0.amount'],
  ];
  for (const [name, gifts, code, fieldName] of badGifts) {
    it(`refuses ${name} (400 ${code} naming ${fieldName}), writing nothing`, async () => {
      const named = gifts.map((g) => {
        const gift = g as { productId: string; amount?: number };
        return { ...gift, productId: (products as unknown as Record<string, string>)[gift.productId] ?? gift.productId };
      });
      const body = await refused(() => v2({ gifts: named }), 400, code);
      expect(body).toHaveProperty('details', [{ field: fieldName, problem: expect.any(String) }]);
    });
  }

  it('says the range in kronor', async () => {
    const body = await refused(() => v2({ gifts: [{ productId: products.value, amount: 1 }] }), 400, 'GIFT_AMOUNT_OUT_OF_RANGE');
    expect(body.message).toBe('Beloppet ska vara mellan 100 och 1000 kr.');
  });

  it('refuses 11 gifts, an amount of 0, and a total from the client', async () => {
    await refused(() => v2({ gifts: Array.from({ length: 11 }, () => ({ productId: products.fixed })) }), 400, 'VALIDATION_FAILED');
    await refused(() => v2({ gifts: [{ productId: products.value, amount: 0 }] }), 400, 'VALIDATION_FAILED');
    await refused(() => v2({ gifts: [{ productId: products.value, amount: 25000 }], total: 1 }), 400, 'VALIDATION_FAILED');
    await refused(() => v2({ gifts: [{ productId: products.value, amount: 250.5 }] }), 400, 'VALIDATION_FAILED');
    await refused(() => v2({ gifts: [{ productId: products.fixed, price: 1 }] }), 400, 'VALIDATION_FAILED');
    const ten = await draft(alice, { gifts: Array.from({ length: 10 }, () => ({ productId: products.fixed })) }, '/api/greetie/createv2');
    expect(ten.total).toBe(149000);
  });
});

describe('PATCH /api/greetie/{id}: the draft as the user goes', () => {
  const patch = (who: Person | undefined, id: string, body: unknown) => call(t.app, who, 'PATCH', `/api/greetie/${id}`, body);

  it('changes what is given, keeps the rest, and moves updatedAt', async () => {
    const g = await draft(alice, { message: 'Första', content: [el({ type: 'emoji', value: '🎂' })] });
    t.clock.advance(1000);
    const res = await patch(alice, g.id, { recipient: { mobileNumber: bob.mobileNumber, name: 'Bob' } });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as Greetie;
    expect(after).toMatchObject({ id: g.id, message: 'Första', content: g.content, recipient: { mobileNumber: bob.mobileNumber, name: 'Bob' } });
    expect(after.updatedAt).toBe(t.clock.now().toISOString());
    expect(after.createdAt).toBe(g.createdAt);
  });

  it('refuses a recipient name the name rule refuses (400, field body.recipient.name), changing nothing; takes initials', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber, name: 'Bob' } });
    for (const [name, code] of [['www.greetie-support.se', 'NAME_HAS_LINK'], ['Bob 0701234567', 'NAME_HAS_PHONE_NUMBER'], ['Bob\u2066', 'NAME_INVALID_CHARACTERS']]) {
      const res = await patch(alice, g.id, { recipient: { mobileNumber: bob.mobileNumber, name } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code, details: [{ field: 'body.recipient.name', problem: code }] });
    }
    const res = await patch(alice, g.id, { recipient: { mobileNumber: bob.mobileNumber, name: ' A.B. Svensson ' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Greetie).recipient?.name).toBe('A.B. Svensson');
  });

  it('replaces the gifts and the total; null clears the recipient and the delivery time', async () => {
    const g = await draft(alice, {
      recipient: { mobileNumber: bob.mobileNumber },
      deliverAt: new Date(t.clock.ms + 3600_000).toISOString(),
      gifts: [{ productId: products.fixed }],
    }, '/api/greetie/createv2');
    expect(g.total).toBe(14900);
    const res = await patch(alice, g.id, { gifts: [{ productId: products.value, amount: 50000 }], recipient: null, deliverAt: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 50000, recipient: null, deliverAt: null });
    expect((res.json() as Greetie).gifts.map((x) => x.productId)).toEqual([products.value]);
    const cleared = await patch(alice, g.id, { gifts: [] });
    expect(cleared.json()).toMatchObject({ total: 0, gifts: [] });
  });

  it('is all or nothing: a good message with a bad gift changes neither', async () => {
    const g = await draft(alice, { message: 'Före' });
    await refused(() => patch(alice, g.id, { message: 'Efter', gifts: [{ productId: products.inactiveProduct }] }), 400, 'GIFT_PRODUCT_UNAVAILABLE');
    await refused(() => patch(alice, g.id, { message: 'Efter', recipient: { mobileNumber: '123' } }), 400, 'INVALID_MOBILE_NUMBER');
    await refused(() => patch(alice, g.id, { message: 'Efter', deliverAt: new Date(t.clock.ms - 1).toISOString() }), 400, 'DELIVER_AT_PAST');
    await refused(() => patch(alice, g.id, { message: 'Efter', content: Array.from({ length: 31 }, () => el({ type: 'emoji', value: '🎉' })) }), 400, 'VALIDATION_FAILED');
    const read = await call(t.app, alice, 'GET', `/api/greetie/${g.id}`);
    expect(read.json().message).toBe('Före');
  });

  it("takes a picture element uploaded to this greetie, never another greetie's", async () => {
    const mine = await draft(alice);
    const theirs = await draft(bob);
    await mediaRow(t.db.db, mine.id, 'picture', 'PictureKeyOfMine0000000.jpg');
    await mediaRow(t.db.db, theirs.id, 'picture', 'PictureKeyOfBob00000000.jpg');
    const ok = await patch(alice, mine.id, { content: [el({ type: 'picture', value: '/api/media/PictureKeyOfMine0000000.jpg' })] });
    expect(ok.statusCode, ok.body).toBe(200);
    await refused(() => patch(alice, mine.id, { content: [el({ type: 'picture', value: '/api/media/PictureKeyOfBob00000000.jpg' })] }), 400, 'CONTENT_PICTURE_UNKNOWN');
  });

  it("another person's draft is 404, a visitor 401, an unknown id 404, a malformed id 400", async () => {
    const g = await draft(alice);
    await refused(() => patch(bob, g.id, { message: 'Kapat' }), 404, 'GREETIE_NOT_FOUND');
    await refused(() => patch(undefined, g.id, { message: 'Kapat' }), 401, 'UNAUTHORIZED');
    await refused(() => patch(alice, '00000000-0000-4000-8000-000000000000', { message: 'x' }), 404, 'GREETIE_NOT_FOUND');
    await refused(() => patch(alice, 'not-a-uuid', { message: 'x' }), 400, 'VALIDATION_FAILED');
  });

  it('is 409 once the greetie is no longer a draft (sent, awaiting payment)', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    expect((await call(t.app, alice, 'POST', `/api/greetie/${g.id}/send`)).statusCode).toBe(200);
    await refused(() => patch(alice, g.id, { message: 'Ändrat' }), 409, 'GREETIE_NOT_DRAFT');
    const paying = await draft(alice);
    await setStatus(t.db.db, paying.id, 'awaitingPayment');
    await refused(() => patch(alice, paying.id, { message: 'Ändrat' }), 409, 'GREETIE_NOT_DRAFT');
  });
});

describe('POST /api/greetie/{id}/send', () => {
  const send = (who: Person | undefined, id: string) => call(t.app, who, 'POST', `/api/greetie/${id}/send`);

  it('schedules a draft with a recipient and no gifts; a second send is 409', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    const res = await send(alice, g.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: g.id, status: 'scheduled' });
    await refused(() => send(alice, g.id), 409, 'GREETIE_NOT_DRAFT');
  });

  it('is 409 SENDER_NAME_REQUIRED while the sender has no name, or one saved before the name rule that it refuses', async () => {
    const nameless = await person(t.app, undefined, null);
    const g = await draft(nameless, { recipient: { mobileNumber: bob.mobileNumber } });
    await refused(() => send(nameless, g.id), 409, 'SENDER_NAME_REQUIRED');
    await sql`UPDATE mobile_user SET name = 'Vinst! https://evil.example' WHERE mobile_number = ${nameless.mobileNumber}`.execute(t.db.db);
    await refused(() => send(nameless, g.id), 409, 'SENDER_NAME_REQUIRED');
    expect(((await call(t.app, nameless, 'GET', `/api/greetie/${g.id}`)).json() as Greetie).status).toBe('draft');
    expect((await call(t.app, nameless, 'POST', '/api/mobileuser', { name: 'Nora' })).statusCode).toBe(200);
    expect((await send(nameless, g.id)).statusCode).toBe(200);
  });

  it('refuses a draft without a recipient (400), with gifts (409), by someone else (404), by a visitor (401)', async () => {
    const none = await draft(alice);
    await refused(() => send(alice, none.id), 400, 'GREETIE_NO_RECIPIENT');
    const gifts = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber }, gifts: [{ productId: products.fixed }] }, '/api/greetie/createv2');
    await refused(() => send(alice, gifts.id), 409, 'GREETIE_HAS_GIFTS');
    const ok = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    await refused(() => send(bob, ok.id), 404, 'GREETIE_NOT_FOUND');
    await refused(() => send(undefined, ok.id), 401, 'UNAUTHORIZED');
  });

  it('refuses a draft whose delivery time passed while it was composed', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber }, deliverAt: new Date(t.clock.ms + 60_000).toISOString() });
    t.clock.advance(120_000);
    await refused(() => send(alice, g.id), 400, 'DELIVER_AT_PAST');
  });
});

describe('GET /api/greetie/{id}', () => {
  const read = (who: Person | undefined, id: string, query = '') => call(t.app, who, 'GET', `/api/greetie/${id}${query}`);

  it('the sender reads their own, drafts included, and never marks it viewed', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    expect((await read(alice, g.id)).json()).toMatchObject({ id: g.id, status: 'draft', viewed: false });
    await setStatus(t.db.db, g.id, 'delivered', t.clock.now());
    const after = (await read(alice, g.id)).json() as Greetie;
    expect(after).toMatchObject({ status: 'delivered', viewed: false, viewedAt: null, deliveredAt: t.clock.now().toISOString() });
  });

  it('the recipient sees it only once delivered; their read marks it viewed once; markAsViewed=false does not', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    await refused(() => read(bob, g.id), 404, 'GREETIE_NOT_FOUND');
    await setStatus(t.db.db, g.id, 'scheduled');
    await refused(() => read(bob, g.id), 404, 'GREETIE_NOT_FOUND');
    await setStatus(t.db.db, g.id, 'delivered', t.clock.now());
    const peek = await read(bob, g.id, '?markAsViewed=false');
    expect(peek.json()).toMatchObject({ viewed: false, viewedAt: null });
    t.clock.advance(1000);
    const first = await read(bob, g.id);
    expect(first.json()).toMatchObject({ viewed: true, viewedAt: t.clock.now().toISOString() });
    t.clock.advance(1000);
    const again = await read(bob, g.id);
    expect(again.json().viewedAt).toBe(first.json().viewedAt);
  });

  it('anyone else gets 404, a visitor 401', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    await setStatus(t.db.db, g.id, 'delivered', t.clock.now());
    await refused(() => read(carol, g.id), 404, 'GREETIE_NOT_FOUND');
    await refused(() => read(undefined, g.id), 401, 'UNAUTHORIZED');
    await refused(() => read(carol, '00000000-0000-4000-8000-000000000000'), 404, 'GREETIE_NOT_FOUND');
  });

  it('a greetie sent to oneself is marked viewed when it is read after delivery', async () => {
    const g = await draft(alice, { recipient: { mobileNumber: alice.mobileNumber } });
    expect((await read(alice, g.id)).json().viewed).toBe(false);
    await setStatus(t.db.db, g.id, 'delivered', t.clock.now());
    expect((await read(alice, g.id)).json().viewed).toBe(true);
  });

  it('shows its media: the newest media, thumbnail and overlay files, kind from the media file', async () => {
    const g = await draft(alice);
    expect((await read(alice, g.id)).json().media).toBeNull();
    await mediaRow(t.db.db, g.id, 'thumbnail', 'ThumbKey000000000000000.webp');
    expect((await read(alice, g.id)).json().media).toBeNull();
    await mediaRow(t.db.db, g.id, 'media', 'VideoKey000000000000000.mp4', 'video');
    await mediaRow(t.db.db, g.id, 'picture', 'PictKey0000000000000000.jpg');
    // A draft's files are addressed with a signature only its sender gets (decision 071).
    const signed = (key: string) => new RegExp(`^/api/media/${key.replace('.', '\\.')}\\?exp=\\d+&sig=[\\w-]{43}$`);
    expect((await read(alice, g.id)).json().media).toEqual({
      kind: 'video',
      url: expect.stringMatching(signed('VideoKey000000000000000.mp4')),
      thumbnailUrl: expect.stringMatching(signed('ThumbKey000000000000000.webp')),
      overlayUrl: null,
    });
    await mediaRow(t.db.db, g.id, 'overlay', 'OverlayKey0000000000000.png');
    expect((await read(alice, g.id)).json().media.overlayUrl).toMatch(signed('OverlayKey0000000000000.png'));
    // Once it has left draft, the unguessable key alone serves it (the recipient's link, previews).
    await setStatus(t.db.db, g.id, 'scheduled', t.clock.now());
    expect((await read(alice, g.id)).json().media).toEqual({
      kind: 'video',
      url: '/api/media/VideoKey000000000000000.mp4',
      thumbnailUrl: '/api/media/ThumbKey000000000000000.webp',
      overlayUrl: '/api/media/OverlayKey0000000000000.png',
    });
  });
});

describe('DELETE /api/greetie/{id}', () => {
  const del = (who: Person | undefined, id: string) => call(t.app, who, 'DELETE', `/api/greetie/${id}`);

  it('deletes a draft with its gifts and media rows, then asks the storage to delete its files', async () => {
    const g = await draft(alice, { gifts: [{ productId: products.fixed }] }, '/api/greetie/createv2');
    await mediaRow(t.db.db, g.id, 'media', 'DelMediaKey000000000000.jpg');
    await mediaRow(t.db.db, g.id, 'thumbnail', 'DelThumbKey000000000000.jpg');
    const res = await del(alice, g.id);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).statusCode).toBe(404);
    const { rows } = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM greetie_gift WHERE greetie_id = ${g.id})::int
           + (SELECT count(*) FROM media_file WHERE greetie_id = ${g.id})::int AS n`.execute(t.db.db);
    expect(rows[0]!.n).toBe(0);
    const cleaned = t.cleaned.find((c) => c.greetieId === g.id);
    expect(cleaned?.storageKeys.sort()).toEqual(['DelMediaKey000000000000.jpg', 'DelThumbKey000000000000.jpg']);
  });

  it('deletes one awaiting payment; refuses one paid or delivered (409)', async () => {
    const paying = await draft(alice);
    await setStatus(t.db.db, paying.id, 'awaitingPayment');
    expect((await del(alice, paying.id)).statusCode).toBe(204);
    for (const status of ['scheduled', 'delivered', 'deliveryFailed'] as const) {
      const g = await draft(alice);
      await setStatus(t.db.db, g.id, status);
      await refused(() => del(alice, g.id), 409, 'GREETIE_NOT_DELETABLE');
    }
  });

  it("someone else's is 404, even its recipient's; a visitor 401", async () => {
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber } });
    await refused(() => del(bob, g.id), 404, 'GREETIE_NOT_FOUND');
    await refused(() => del(undefined, g.id), 401, 'UNAUTHORIZED');
  });

  it('answers 204 even when the storage fails (the greetie is gone; the failure is logged)', async () => {
    const g = await draft(alice);
    t.media.fail = true;
    try {
      expect((await del(alice, g.id)).statusCode).toBe(204);
    } finally {
      t.media.fail = false;
    }
    expect((await call(t.app, alice, 'GET', `/api/greetie/${g.id}`)).statusCode).toBe(404);
  });
});

describe('GET /api/greetie/{id}/info', () => {
  it('tells anyone with the id the names, whether it has gifts and its thumbnail, and nothing else', async () => {
    await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: alice.auth, payload: { name: 'Alice' } });
    const g = await draft(alice, { recipient: { mobileNumber: bob.mobileNumber, name: 'Bob' }, message: 'hemligt', gifts: [{ productId: products.fixed }] }, '/api/greetie/createv2');
    await mediaRow(t.db.db, g.id, 'thumbnail', 'InfoThumbKey00000000000.webp');
    const res = await call(t.app, undefined, 'GET', `/api/greetie/${g.id}/info`);
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as GreetieInfo;
    expect(Value.Check(GreetieInfo, info)).toBe(true);
    const name = (await call(t.app, alice, 'GET', '/api/auth/my')).json().name as string | null;
    // A draft's thumbnail is its sender's alone: none in the public summary until it has left draft.
    expect(info).toEqual({ id: g.id, senderName: name, recipientName: 'Bob', hasGifts: true, thumbnailUrl: null });
    await setStatus(t.db.db, g.id, 'scheduled', t.clock.now());
    const sent = (await call(t.app, undefined, 'GET', `/api/greetie/${g.id}/info`)).json() as GreetieInfo;
    expect(sent.thumbnailUrl).toBe('/api/media/InfoThumbKey00000000000.webp');
    expect(res.body).not.toContain(bob.mobileNumber);
    expect(res.body).not.toContain('hemligt');
    expect(res.body).not.toContain(g.refId);
  });

  it('a greetie without gifts or media, and an unknown id (404)', async () => {
    const g = await draft(alice);
    expect((await call(t.app, undefined, 'GET', `/api/greetie/${g.id}/info`)).json()).toMatchObject({ hasGifts: false, thumbnailUrl: null, recipientName: null });
    await refused(() => call(t.app, undefined, 'GET', '/api/greetie/00000000-0000-4000-8000-000000000000/info'), 404, 'GREETIE_NOT_FOUND');
  });
});
