import QRCode from 'qrcode';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { translate } from '../../../server/i18n/index.ts';
import { registerServerMessages } from '../../../server/messages.ts';
import {
  INSTRUCTION_ID,
  PaymentError,
  SWISH_ERROR_CODES,
  kronorString,
  mapSwishStatus,
  newInstructionId,
  paymentErrorMessageCode,
  swishPayerAlias,
  type CreatePaymentRequest,
} from '../../../server/providers/payment/index.ts';
import { swishAppUrl, swishQrContent, swishQrSvg } from '../../../server/providers/payment/qr.ts';
import { createSwishPayments, type SwishOptions } from '../../../server/providers/payment/swish.ts';
import { swishMessage } from '../../../server/providers/payment/index.ts';
import { startFakeSwish, type FakeSwish } from './fake-swish.ts';
import { testPki, type TestPki } from './test-ca.ts';

registerServerMessages();

const CALLBACK = 'https://greetie.test/api/greetie/paymentCallBack';

async function failure(p: Promise<unknown>): Promise<PaymentError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PaymentError);
  return err as PaymentError;
}

describe('the Swish adapter against a fake Swish over mutual TLS', () => {
  let pki: TestPki;
  let swish: FakeSwish;
  beforeAll(async () => {
    pki = await testPki();
    swish = await startFakeSwish(pki);
  });
  afterAll(async () => {
    await swish.close();
  });
  beforeEach(() => {
    swish.requests.length = 0;
    swish.script = ['normal'];
  });

  const adapter = (over: Partial<SwishOptions> = {}) =>
    createSwishPayments({
      baseUrl: swish.url,
      payeeAlias: '1231181189',
      cert: pki.client.certPem,
      key: pki.client.keyPem,
      ca: pki.caPem,
      callbackUrl: CALLBACK,
      timeoutMs: 1000,
      attempts: 3,
      backoffMs: 0,
      ...over,
    });
  const request = (over: Partial<CreatePaymentRequest> = {}): CreatePaymentRequest => ({
    instructionId: newInstructionId(),
    amount: 14900,
    reference: 'G0123456789abcdef0123456789abcdef',
    message: 'Greetie till Anna',
    ...over,
  });

  it('creates an m-commerce request with PUT v2 and the documented body, and gets Location and the token', async () => {
    const input = request();
    const created = await adapter().create(input);
    expect(swish.requests).toHaveLength(1);
    const [r] = swish.requests;
    expect(r!.method).toBe('PUT');
    expect(r!.path).toBe(`/api/v2/paymentrequests/${input.instructionId}`);
    expect(r!.path).toMatch(/\/[0-9A-F]{32}$/);
    expect(r!.contentType).toMatch(/^application\/json/);
    expect(r!.clientCn).toBe('1231181189');
    expect(JSON.parse(r!.body)).toEqual({
      payeePaymentReference: 'G0123456789abcdef0123456789abcdef',
      callbackUrl: CALLBACK,
      payeeAlias: '1231181189',
      currency: 'SEK',
      amount: '149.00',
      message: 'Greetie till Anna',
    });
    expect(created.instructionId).toBe(input.instructionId);
    expect(created.location).toMatch(new RegExp(`/api/v1/paymentrequests/${input.instructionId}$`));
    expect(created.token).toMatch(/^[0-9a-f]{32}$/);
    expect(created.token).toBe(swish.store.get(input.instructionId)!.token);
  });

  it('creates an e-commerce request with the payer alias as 46… (no "+", no leading 0) and no token', async () => {
    const input = request({ payerAlias: '+46701234567', amount: 5 + 100 * 12 });
    const created = await adapter().create(input);
    const body = JSON.parse(swish.requests[0]!.body) as Record<string, string>;
    expect(body.payerAlias).toBe('46701234567');
    expect(body.amount).toBe('12.05');
    expect(created.token).toBeNull();
    expect(created.location).not.toBeNull();
  });

  it('maps a 422 error array to its codes, each with a Swedish and an English message', async () => {
    const payer = '+46701234568';
    await adapter().create(request({ payerAlias: payer }));
    const err = await failure(adapter().create(request({ payerAlias: payer })));
    expect(err.kind).toBe('invalid');
    expect(err.status).toBe(422);
    expect(err.codes).toEqual(['RP06']);
    expect(paymentErrorMessageCode(err.codes[0])).toBe('PAYMENT_RP06');
    expect(translate('PAYMENT_RP06', 'sv')).toMatch(/Swish-app/);
    expect(swish.requests).toHaveLength(2); // a 422 is not retried

    const wrongPayee = await failure(adapter({ payeeAlias: '1239999999' }).create(request()));
    expect(wrongPayee.codes).toEqual(['RP01']);
  });

  it('has a message in both languages for every Swish error code it names, and a general one for others', () => {
    for (const code of SWISH_ERROR_CODES) {
      const key = paymentErrorMessageCode(code);
      expect(key).toBe(`PAYMENT_${code}`);
      expect(translate(key, 'sv')).not.toBe(translate('INTERNAL_ERROR', 'sv'));
      expect(translate(key, 'en')).not.toBe(translate('INTERNAL_ERROR', 'en'));
    }
    expect(paymentErrorMessageCode('XX99')).toBe('PAYMENT_FAILED');
    expect(paymentErrorMessageCode(null)).toBe('PAYMENT_FAILED');
  });

  it('refuses before calling: a callback URL that is not HTTPS on 443 (RP03), a long reference (FF08), a long message (RP02), a bad id', async () => {
    for (const callbackUrl of ['http://greetie.test/api/greetie/paymentCallBack', 'https://greetie.test:8443/api/greetie/paymentCallBack']) {
      expect((await failure(adapter({ callbackUrl }).create(request()))).codes).toEqual(['RP03']);
    }
    expect((await failure(adapter().create(request({ reference: 'x'.repeat(36) })))).codes).toEqual(['FF08']);
    expect((await failure(adapter().create(request({ message: 'x'.repeat(51) })))).codes).toEqual(['RP02']);
    expect((await failure(adapter().create(request({ instructionId: newInstructionId().toLowerCase() })))).codes).toEqual(['RP04']);
    expect((await failure(adapter().create(request({ payerAlias: '+4681234567' })))).codes).toEqual(['BE18']);
    expect((await failure(adapter().create(request({ amount: 0 })))).codes).toEqual(['PA02']);
    expect(swish.requests).toHaveLength(0);
  });

  it('retries a 5xx with the same request and succeeds when Swish recovers: one payment request', async () => {
    swish.script = ['server-error', 'normal'];
    const input = request();
    const created = await adapter().create(input);
    expect(swish.requests).toHaveLength(2);
    expect(swish.requests[1]!.path).toBe(swish.requests[0]!.path);
    expect(swish.requests[1]!.body).toBe(swish.requests[0]!.body);
    expect(created.token).not.toBeNull();
    expect([...swish.store.keys()].filter((k) => k === input.instructionId)).toHaveLength(1);
  });

  it('gives up after a bounded number of attempts on 5xx', async () => {
    swish.script = ['server-error'];
    const input = request();
    const err = await failure(adapter().create(input));
    expect(err.kind).toBe('unavailable');
    expect(swish.requests).toHaveLength(3);
    expect(swish.store.has(input.instructionId)).toBe(false);
  });

  it('times out a Swish that does not answer, a bounded number of times', async () => {
    swish.script = ['slow'];
    const started = Date.now();
    const err = await failure(adapter({ timeoutMs: 150, attempts: 2 }).status(newInstructionId()));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toMatch(/within 150 ms/);
    expect(swish.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('when an answer was lost after Swish made the request, the retry finds that request instead of making another', async () => {
    swish.script = ['slow-after-store', 'normal'];
    const input = request();
    const created = await adapter({ timeoutMs: 200 }).create(input);
    expect(swish.requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'GET']);
    expect(swish.store.has(input.instructionId)).toBe(true);
    expect(created).toEqual({ instructionId: input.instructionId, location: expect.stringMatching(input.instructionId), token: null });
  });

  it.each([
    ['CREATED', null, 'pending'],
    ['PAID', null, 'paid'],
    ['DECLINED', 'RF07', 'declined'],
    ['DECLINED', null, 'declined'],
    ['CANCELLED', null, 'cancelled'],
    ['ERROR', 'BANKIDCL', 'cancelled'],
    ['ERROR', 'TM01', 'expired'],
    ['ERROR', 'BANKIDUNKN', 'error'],
    ['ERROR', 'DS24', 'error'],
  ] as const)('reads Swish %s %s as %s with GET v1', async (status, errorCode, ours) => {
    const input = request();
    await adapter().create(input);
    if (status !== 'CREATED') swish.settle(input.instructionId, status, errorCode);
    swish.requests.length = 0;
    const state = await adapter().status(input.instructionId);
    expect(swish.requests).toEqual([expect.objectContaining({ method: 'GET', path: `/api/v1/paymentrequests/${input.instructionId}` })]);
    expect(state).toMatchObject({ instructionId: input.instructionId, status: ours, providerStatus: status, errorCode, amount: 14900 });
    if (status === 'PAID') {
      expect(state.paymentReference).toMatch(/^[0-9A-F]{32}$/);
      expect(state.datePaid).not.toBeNull();
    }
  });

  it('answers notFound for a request Swish does not know', async () => {
    expect((await failure(adapter().status(newInstructionId()))).kind).toBe('notFound');
  });

  it('cancels with PATCH v1 and the JSON-patch body', async () => {
    const input = request();
    await adapter().create(input);
    swish.requests.length = 0;
    const state = await adapter().cancel(input.instructionId);
    const [r] = swish.requests;
    expect(r!.method).toBe('PATCH');
    expect(r!.path).toBe(`/api/v1/paymentrequests/${input.instructionId}`);
    expect(r!.contentType).toBe('application/json-patch+json');
    expect(JSON.parse(r!.body)).toEqual([{ op: 'replace', path: '/status', value: 'cancelled' }]);
    expect(state).toMatchObject({ status: 'cancelled', providerStatus: 'CANCELLED' });
    expect(swish.store.get(input.instructionId)!.status).toBe('CANCELLED');
  });

  it('reports a request paid before the cancel arrived as paid, not as an error', async () => {
    const input = request();
    await adapter().create(input);
    swish.settle(input.instructionId, 'PAID');
    const state = await adapter().cancel(input.instructionId);
    expect(state.status).toBe('paid');
    expect(swish.requests.slice(-2).map((r) => r.method)).toEqual(['PATCH', 'GET']);
  });

  it('refuses to talk without our client certificate being one Swish trusts, and to a server we do not trust', async () => {
    const stranger = await failure(adapter({ cert: pki.stranger.certPem, key: pki.stranger.keyPem, attempts: 1 }).status(newInstructionId()));
    expect(stranger.kind).toBe('unavailable');
    expect(swish.requests).toHaveLength(0);

    const untrusted = await failure(adapter({ ca: pki.stranger.certPem, attempts: 1 }).status(newInstructionId()));
    expect(untrusted.kind).toBe('unavailable');
    expect(untrusted.message).toMatch(/could not be reached/);
    expect(swish.requests).toHaveLength(0);
  });

  it('reports 401 as rejected, without retrying', async () => {
    swish.script = ['unauthorized'];
    const err = await failure(adapter().create(request()));
    expect(err.kind).toBe('rejected');
    expect(err.status).toBe(401);
    expect(swish.requests).toHaveLength(1);
  });
});

describe('Swish formats', () => {
  it('writes öre as kronor with two decimals and refuses what is not a positive whole number of öre', () => {
    expect(kronorString(14900)).toBe('149.00');
    expect(kronorString(14905)).toBe('149.05');
    expect(kronorString(100)).toBe('1.00');
    expect(kronorString(5)).toBe('0.05');
    expect(kronorString(123456789)).toBe('1234567.89');
    for (const bad of [0, -100, 1.5, Number.NaN]) expect(() => kronorString(bad)).toThrow(PaymentError);
  });

  it('makes instruction ids of 32 upper-case hex digits, never the same twice', () => {
    const ids = new Set(Array.from({ length: 1000 }, newInstructionId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(INSTRUCTION_ID);
  });

  it('writes a Swedish mobile number as Swish\'s payer alias', () => {
    expect(swishPayerAlias('+46701234567')).toBe('46701234567');
    for (const bad of ['0701234567', '46701234567', '+4681234567', '+4570123456']) expect(() => swishPayerAlias(bad)).toThrow(PaymentError);
  });

  it('keeps a message within what Swish allows', () => {
    expect(swishMessage('Greetie från Åsa & Björn 🎉 <3')).toBe('Greetie från Åsa Björn 3');
    expect(swishMessage('x'.repeat(80))).toHaveLength(50);
  });

  it('maps Swish statuses per issue 13, and keeps an unknown status pending', () => {
    expect(mapSwishStatus('PAID', null)).toBe('paid');
    expect(mapSwishStatus('DECLINED', 'RF07')).toBe('declined');
    expect(mapSwishStatus('CANCELLED', null)).toBe('cancelled');
    expect(mapSwishStatus('ERROR', 'BANKIDCL')).toBe('cancelled');
    expect(mapSwishStatus('ERROR', 'TM01')).toBe('expired');
    expect(mapSwishStatus('ERROR', 'ACMT03')).toBe('error');
    expect(mapSwishStatus('ERROR', null)).toBe('error');
    expect(mapSwishStatus('SOMETHING_NEW', null)).toBe('pending');
  });

  it('links to the Swish app with the token and where to come back, URL-encoded', () => {
    expect(swishAppUrl('c28a4061470f4af48973bd2a4642b4fa', 'https://greetie.se/greetie/details/3f2b?x=1&y=2')).toBe(
      'swish://paymentrequest?token=c28a4061470f4af48973bd2a4642b4fa&callbackurl=https%3A%2F%2Fgreetie.se%2Fgreetie%2Fdetails%2F3f2b%3Fx%3D1%26y%3D2',
    );
  });

  it('draws the QR code of "D" + the token as an SVG', async () => {
    const token = 'c28a4061470f4af48973bd2a4642b4fa';
    expect(swishQrContent(token)).toBe(`D${token}`);
    const svg = await swishQrSvg(token);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+"/);
    expect(svg).not.toMatch(/<script|on\w+=/i);
    // The same drawing as the symbol for exactly that content (a different token draws another).
    const expected = QRCode.create(`D${token}`, { errorCorrectionLevel: 'M' });
    expect(svg).toContain(`viewBox="0 0 ${expected.modules.size + 8} ${expected.modules.size + 8}"`);
    expect(await swishQrSvg(token)).toBe(svg);
    expect(await swishQrSvg(token.replace('c', 'd'))).not.toBe(svg);
    expect(svg).toBe(await QRCode.toString(`D${token}`, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } }));
  });
});
