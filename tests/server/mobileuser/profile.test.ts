import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTestApp, signIn } from '../auth/support.ts';

type T = Awaited<ReturnType<typeof authTestApp>>;

/** API.md "Mobile user": one's own profile and marketing consent, self only, on real PostgreSQL. */
describe('/api/mobileuser: profile and marketing consent', () => {
  let t: T;
  beforeAll(async () => {
    t = await authTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function person() {
    const s = await signIn(t.app);
    return { ...s, id: decodeJwt(s.token).sub!, auth: { authorization: `Bearer ${s.token}` } };
  }
  const row = (id: string) =>
    t.db.db.selectFrom('mobile_user').select(['name', 'allow_marketing']).where('id', '=', id).executeTakeFirstOrThrow();

  it('POST /mobileuser completes the profile: the name trimmed, the consent, the MobileUser of /auth/my', async () => {
    const p = await person();
    const res = await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: p.auth, payload: { name: '  Anna Svensson ', allowMarketing: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: p.id, mobileNumber: p.mobileNumber, name: 'Anna Svensson', allowMarketing: true, merchants: [], createdAt: expect.any(String) });
    const my = await t.app.inject({ method: 'GET', url: '/api/auth/my', headers: p.auth });
    expect(my.json()).toEqual(res.json());
    expect(await row(p.id)).toEqual({ name: 'Anna Svensson', allow_marketing: true });
  });

  it('leaves out what is not sent: a name alone keeps the consent, an empty body changes nothing', async () => {
    const p = await person();
    await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: p.auth, payload: { allowMarketing: true } });
    const named = await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: p.auth, payload: { name: 'Åsa Öberg' } });
    expect(named.json()).toMatchObject({ name: 'Åsa Öberg', allowMarketing: true });
    const same = await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: p.auth, payload: {} });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(named.json());
  });

  it('GET /mobileuser/{id} answers the own profile, also for the id in upper case', async () => {
    const p = await person();
    const res = await t.app.inject({ method: 'GET', url: `/api/mobileuser/${p.id}`, headers: p.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, mobileNumber: p.mobileNumber, name: null, allowMarketing: false });
    const upper = await t.app.inject({ method: 'GET', url: `/api/mobileuser/${p.id.toUpperCase()}`, headers: p.auth });
    expect(upper.statusCode).toBe(200);
  });

  it('POST /mobileuser/{id} changes the own profile', async () => {
    const p = await person();
    const res = await t.app.inject({ method: 'POST', url: `/api/mobileuser/${p.id}`, headers: p.auth, payload: { name: 'Erik', allowMarketing: false } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, name: 'Erik', allowMarketing: false });
    expect(await row(p.id)).toEqual({ name: 'Erik', allow_marketing: false });
  });

  it("another person's id is 404 for reading and changing, and nothing of theirs changes", async () => {
    const owner = await person();
    const other = await person();
    await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: owner.auth, payload: { name: 'Ägaren' } });
    const read = await t.app.inject({ method: 'GET', url: `/api/mobileuser/${owner.id}`, headers: other.auth });
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    expect(read.body).not.toContain(owner.mobileNumber);
    const write = await t.app.inject({ method: 'POST', url: `/api/mobileuser/${owner.id}`, headers: other.auth, payload: { name: 'Inkräktare', allowMarketing: true } });
    expect(write.statusCode).toBe(404);
    expect(await row(owner.id)).toEqual({ name: 'Ägaren', allow_marketing: false });
    expect(await row(other.id)).toEqual({ name: null, allow_marketing: false });
    // An id nobody has is answered the same way: no hint which ids exist.
    const nobody = await t.app.inject({ method: 'GET', url: '/api/mobileuser/00000000-0000-4000-8000-000000000000', headers: other.auth });
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toEqual(read.json());
  });

  it('POST /mobileuser/allowmarketing gives and withdraws the consent', async () => {
    const p = await person();
    const on = await t.app.inject({ method: 'POST', url: '/api/mobileuser/allowmarketing?isAllowed=true', headers: p.auth });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ id: p.id, allowMarketing: true, name: null });
    expect((await row(p.id)).allow_marketing).toBe(true);
    const off = await t.app.inject({ method: 'POST', url: '/api/mobileuser/allowmarketing?isAllowed=false', headers: p.auth });
    expect(off.json()).toMatchObject({ allowMarketing: false });
    expect((await row(p.id)).allow_marketing).toBe(false);
  });

  it.each([
    ['', 'isAllowed missing'],
    ['?isAllowed=maybe', 'not a boolean'],
    ['?isAllowed=true&extra=1', 'an unknown parameter'],
  ])('allowmarketing%s is 400 (%s) and changes nothing', async (query, _why) => {
    const p = await person();
    const res = await t.app.inject({ method: 'POST', url: `/api/mobileuser/allowmarketing${query}`, headers: p.auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect((await row(p.id)).allow_marketing).toBe(false);
  });

  describe('a refused name is a clear 400 in Swedish or English, and nothing is written', () => {
    const INV_SV = 'Namnet får inte innehålla radbrytningar, osynliga tecken eller tecken som vänder på texten.';
    const INV_EN = 'The name cannot contain line breaks, invisible characters or characters that reverse the text.';
    const LINK_SV = 'Namnet får inte innehålla länkar eller webbadresser. Skriv bara namnet.';
    const LINK_EN = 'The name cannot contain links or web addresses. Write only the name.';
    const PHONE_SV = 'Namnet får inte innehålla telefonnummer. Skriv bara namnet.';
    const PHONE_EN = 'The name cannot contain phone numbers. Write only the name.';
    it.each([
      ['   ', 'NAME_EMPTY', 'Skriv ditt namn.', 'Please enter your name.'],
      ['', 'NAME_EMPTY', 'Skriv ditt namn.', 'Please enter your name.'],
      ['x'.repeat(101), 'NAME_TOO_LONG', 'Namnet får vara högst 100 tecken.', 'The name can be at most 100 characters.'],
      ['Anna\nSvensson', 'NAME_INVALID_CHARACTERS', INV_SV, INV_EN],
      ['Anna\u0000', 'NAME_INVALID_CHARACTERS', INV_SV, INV_EN],
      ['Anna\u0007', 'NAME_INVALID_CHARACTERS', INV_SV, INV_EN],
      ['Anna\u2028Svensson', 'NAME_INVALID_CHARACTERS', INV_SV, INV_EN],
      // Bidi controls and invisible characters.
      ...['\u202e', '\u202d', '\u2066', '\u2069', '\u200b', '\u061c', '\ufeff', '\u206f', '\u00ad'].map(
        (c) => [`Anna${c}Lind`, 'NAME_INVALID_CHARACTERS', INV_SV, INV_EN] as [string, string, string, string],
      ),
      // What Greetie's SMS must not carry: links, domains, phone numbers.
      ['Swish: betalning nekad, verifiera på https://swish-verify.example', 'NAME_HAS_LINK', LINK_SV, LINK_EN],
      ['Anna www.greetie', 'NAME_HAS_LINK', LINK_SV, LINK_EN],
      ['greetie-support.se', 'NAME_HAS_LINK', LINK_SV, LINK_EN],
      ['Anna example.com', 'NAME_HAS_LINK', LINK_SV, LINK_EN],
      ['Ring 070-123 45 67', 'NAME_HAS_PHONE_NUMBER', PHONE_SV, PHONE_EN],
      ['Anna 0701234567', 'NAME_HAS_PHONE_NUMBER', PHONE_SV, PHONE_EN],
    ])('%j → %s', async (name, code, sv, en) => {
      const p = await person();
      for (const [lang, message] of [['sv', sv], ['en-GB,en;q=0.9', en]] as const) {
        for (const url of ['/api/mobileuser', `/api/mobileuser/${p.id}`]) {
          const res = await t.app.inject({ method: 'POST', url, headers: { ...p.auth, 'accept-language': lang }, payload: { name, allowMarketing: true } });
          expect(res.statusCode, url).toBe(400);
          expect(res.json()).toEqual({ code, message, details: [{ field: 'body.name', problem: code }] });
        }
      }
      expect(await row(p.id)).toEqual({ name: null, allow_marketing: false });
    });
  });

  it.each(['A.B. Svensson', 'J.R.R. Tolkien', 'Anna-Karin Öberg', 'St. Clair', 'Kalle 2', 'محمد علي', '李小龙'])('the name %j is kept', async (name) => {
    const p = await person();
    const res = await t.app.inject({ method: 'POST', url: `/api/mobileuser/${p.id}`, headers: p.auth, payload: { name } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe(name);
  });

  it('a name of exactly 100 characters (after trimming, counting letters not bytes) is kept', async () => {
    const p = await person();
    const name = 'Å'.repeat(50) + '😀'.repeat(50);
    const res = await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: p.auth, payload: { name: `  ${name}\t` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().name).toBe(name);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ name: { first: 'Anna' } }, 'a name that is not a string'],
    [{ allowMarketing: 'yes' }, 'a consent that is not a boolean'],
    [{ name: 'Anna', mobileNumber: '+46700000000' }, 'a field that cannot be changed here'],
    [{ name: 'x'.repeat(1001) }, 'a name far too long to read'],
  ])('the body %j is 400 VALIDATION_FAILED (%s)', async (payload) => {
    const p = await person();
    const res = await t.app.inject({ method: 'POST', url: '/api/mobileuser', headers: p.auth, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    const after = await t.db.db.selectFrom('mobile_user').select(['name', 'mobile_number']).where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(after).toEqual({ name: null, mobile_number: p.mobileNumber });
  });

  it('an id that is not a UUID is 400', async () => {
    const p = await person();
    const res = await t.app.inject({ method: 'GET', url: '/api/mobileuser/not-a-uuid', headers: p.auth });
    expect(res.statusCode).toBe(400);
  });

  it('a visitor gets 401 from every call, and a bad token too', async () => {
    const p = await person();
    const calls = [
      { method: 'POST' as const, url: '/api/mobileuser', payload: { name: 'X' } },
      { method: 'GET' as const, url: `/api/mobileuser/${p.id}` },
      { method: 'POST' as const, url: `/api/mobileuser/${p.id}`, payload: { name: 'X' } },
      { method: 'POST' as const, url: '/api/mobileuser/allowmarketing?isAllowed=true' },
    ];
    for (const call of calls) {
      const visitor = await t.app.inject(call);
      expect(visitor.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(visitor.json().code).toBe('UNAUTHORIZED');
      const forged = await t.app.inject({ ...call, headers: { authorization: `Bearer ${p.token}x` } });
      expect(forged.statusCode).toBe(401);
    }
    expect(await row(p.id)).toEqual({ name: null, allow_marketing: false });
  });

  it('the OpenAPI document lists the four operations with their access', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string; 'x-access': { visitor: number; owner: number; other: number } }>>;
    };
    const ops = ['post /api/mobileuser', 'post /api/mobileuser/allowmarketing', 'get /api/mobileuser/{id}', 'post /api/mobileuser/{id}'].map((k) => {
      const [method, path] = k.split(' ') as [string, string];
      return doc.paths[path]?.[method];
    });
    expect(ops.map((o) => o?.operationId)).toEqual(['completeProfile', 'setMarketingConsent', 'getProfile', 'updateProfile']);
    expect(ops.map((o) => o?.['x-access'].other)).toEqual([200, 200, 404, 404]);
  });
});
