import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createElksSms } from '../../../server/providers/sms/elks.ts';
import { SmsError } from '../../../server/providers/sms/index.ts';
import { ELKS_PASSWORD, ELKS_USER, startFakeElks, type FakeElks } from './fake-46elks.ts';
import { authTestApp, freshNumber, requestCode } from './support.ts';

describe('the 46elks adapter against a fake 46elks', () => {
  let elks: FakeElks;
  beforeAll(async () => {
    elks = await startFakeElks();
  });
  afterAll(async () => {
    await elks.close();
  });
  beforeEach(() => {
    elks.requests.length = 0;
    elks.script = ['ok'];
  });

  const adapter = (over: Partial<Parameters<typeof createElksSms>[0]> = {}) =>
    createElksSms({ baseUrl: elks.url, username: ELKS_USER, password: ELKS_PASSWORD, sender: 'Greetie', timeoutMs: 300, attempts: 3, backoffMs: 0, ...over });

  it('sends with Basic auth and the form fields from, to, message', async () => {
    await adapter().send({ to: '+46701234567', body: 'Din Greetie-kod är 123456' });
    expect(elks.requests).toHaveLength(1);
    const [r] = elks.requests;
    expect(r!.authorization).toBe(`Basic ${Buffer.from(`${ELKS_USER}:${ELKS_PASSWORD}`).toString('base64')}`);
    expect(r!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(r!.form).toEqual({ from: 'Greetie', to: '+46701234567', message: 'Din Greetie-kod är 123456' });
  });

  it('reports wrong credentials (401) as rejected, without retrying', async () => {
    const err = await adapter({ password: 'wrong' }).send({ to: '+46701234567', body: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmsError);
    expect((err as SmsError).kind).toBe('rejected');
    expect((err as SmsError).status).toBe(401);
    expect(elks.requests).toHaveLength(1);
  });

  it('reports no credit (402) as rejected, without retrying', async () => {
    elks.script = ['no-credit'];
    const err = (await adapter().send({ to: '+46701234567', body: 'x' }).catch((e: unknown) => e)) as SmsError;
    expect(err.kind).toBe('rejected');
    expect(err.status).toBe(402);
    expect(elks.requests).toHaveLength(1);
  });

  it('retries a 5xx and succeeds when the gateway recovers', async () => {
    elks.script = ['server-error', 'ok'];
    await adapter().send({ to: '+46701234567', body: 'x' });
    expect(elks.requests).toHaveLength(2);
  });

  it('gives up after a bounded number of attempts on 5xx', async () => {
    elks.script = ['server-error'];
    const err = (await adapter().send({ to: '+46701234567', body: 'x' }).catch((e: unknown) => e)) as SmsError;
    expect(err.kind).toBe('unavailable');
    expect(elks.requests).toHaveLength(3);
  });

  it('times out a gateway that does not answer, and retries a bounded number of times', async () => {
    elks.script = ['slow'];
    const started = Date.now();
    const err = (await adapter({ timeoutMs: 100, attempts: 2 }).send({ to: '+46701234567', body: 'x' }).catch((e: unknown) => e)) as SmsError;
    expect(err.kind).toBe('unavailable');
    expect(err.message).toMatch(/within 100 ms/);
    expect(elks.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('never puts the message text in its errors', async () => {
    elks.script = ['bad-request'];
    const err = (await adapter().send({ to: '+46701234567', body: 'Din Greetie-kod är 654321' }).catch((e: unknown) => e)) as SmsError;
    expect(err.kind).toBe('rejected');
    expect(err.message).not.toContain('654321');
  });

  it('reports an unreachable gateway as unavailable', async () => {
    const err = (await adapter({ baseUrl: 'http://127.0.0.1:1', attempts: 2 }).send({ to: '+46701234567', body: 'x' }).catch((e: unknown) => e)) as SmsError;
    expect(err.kind).toBe('unavailable');
  });
});

describe('POST /api/auth/verificationcode when the SMS cannot be sent (through 46elks)', () => {
  let elks: FakeElks;
  let t: Awaited<ReturnType<typeof authTestApp>>;
  beforeAll(async () => {
    elks = await startFakeElks();
    t = await authTestApp({
      sms: createElksSms({ baseUrl: elks.url, username: ELKS_USER, password: ELKS_PASSWORD, sender: 'Greetie', timeoutMs: 200, attempts: 2, backoffMs: 0 }),
    });
  });
  afterAll(async () => {
    await t.close();
    await elks.close();
  });

  const usable = (number: string) =>
    t.db.db
      .selectFrom('auth_verification')
      .select('id')
      .where('mobile_number', '=', number)
      .where('sent_at', 'is not', null)
      .where('voided_at', 'is', null)
      .execute();

  it('sends the code through 46elks with the WebOTP line', async () => {
    elks.script = ['ok'];
    const number = freshNumber();
    const res = await requestCode(t.app, number);
    expect(res.statusCode).toBe(200);
    const sent = elks.requests.at(-1)!;
    expect(sent.form.to).toBe(number);
    expect(sent.form.message).toMatch(/^Din Greetie-kod är (\d{6})\n\n@localhost #\1$/);
    expect(await usable(number)).toHaveLength(1);
  });

  it('answers 503 after retries when 46elks is down, leaves no usable verification and does not use up the number', async () => {
    elks.script = ['server-error'];
    const number = freshNumber();
    for (let i = 0; i < 3; i++) {
      const res = await requestCode(t.app, number);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'SMS_UNAVAILABLE', message: expect.stringMatching(/sms/) });
    }
    expect(await usable(number)).toHaveLength(0);
    elks.script = ['ok'];
    // The three failed sends did not count against the 3-per-15-minutes limit.
    expect((await requestCode(t.app, number)).statusCode).toBe(200);
  });

  it('answers 503 on a timeout', async () => {
    elks.script = ['slow'];
    const res = await requestCode(t.app, freshNumber());
    expect(res.statusCode).toBe(503);
  });

  it('answers 502 when 46elks refuses us (no credit), with a message that blames us, not the user', async () => {
    elks.script = ['no-credit'];
    const number = freshNumber();
    const res = await requestCode(t.app, number);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('SMS_REJECTED');
    expect(await usable(number)).toHaveLength(0);
  });
});
