import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentError, createPaymentProvider, newInstructionId, type CreatePaymentRequest } from '../../../server/providers/payment/index.ts';
import { createSandboxPayments, type SandboxOutcome, type SandboxPaymentProvider } from '../../../server/providers/payment/sandbox.ts';
import { createTestDb, testConfig, type TestDb } from '../helpers.ts';

const CALLBACK = 'http://localhost:3000/api/greetie/paymentCallBack';
const T0 = new Date('2026-05-04T10:00:00.000Z');

async function failure(p: Promise<unknown>): Promise<PaymentError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PaymentError);
  return err as PaymentError;
}

describe('the sandbox payment provider (PostgreSQL)', () => {
  let db: TestDb;
  let sandbox: SandboxPaymentProvider;
  let payerSeq = 1000;
  beforeAll(async () => {
    db = await createTestDb();
    sandbox = createSandboxPayments(db.db, { now: () => T0, callbackUrl: CALLBACK, payeeAlias: '1231181189' });
  });
  afterAll(async () => {
    await db.drop();
  });

  const request = (over: Partial<CreatePaymentRequest> = {}): CreatePaymentRequest => ({
    instructionId: newInstructionId(),
    amount: 14900,
    reference: 'G0123456789abcdef',
    message: 'Greetie till Anna',
    ...over,
  });
  const freshPayer = () => `+467012${String(payerSeq++).padStart(5, '0')}`;

  it('is what the default settings choose', () => {
    expect(createPaymentProvider(testConfig(), db.db, () => T0).name).toBe('sandbox');
  });

  it('keeps an m-commerce request pending with a token, and lists it', async () => {
    const input = request();
    const created = await sandbox.create(input);
    expect(created.instructionId).toBe(input.instructionId);
    expect(created.token).toMatch(/^[0-9a-f]{32}$/);
    expect(created.location).toContain(input.instructionId);
    expect(await sandbox.status(input.instructionId)).toEqual({
      instructionId: input.instructionId,
      status: 'pending',
      providerStatus: 'CREATED',
      errorCode: null,
      paymentReference: null,
      amount: 14900,
      datePaid: null,
    });
    const listed = (await sandbox.pending()).find((p) => p.id === input.instructionId);
    expect(listed).toMatchObject({ amount: 149, currency: 'SEK', status: 'CREATED', payeeAlias: '1231181189', callbackUrl: CALLBACK, dateCreated: T0.toISOString() });
  });

  it('answers the same create twice with the same request (the instruction id is the key), and refuses the id for another', async () => {
    const input = request();
    const first = await sandbox.create(input);
    expect(await sandbox.create(input)).toEqual(first);
    const rows = await db.db.selectFrom('sandbox_payment_request').select('instruction_id').where('instruction_id', '=', input.instructionId).execute();
    expect(rows).toHaveLength(1);
    expect((await failure(sandbox.create({ ...input, amount: 100 }))).codes).toEqual(['RP09']);
  });

  it('refuses a second pending request to the same payer (RP06) until the first is settled', async () => {
    const payerAlias = freshPayer();
    const first = request({ payerAlias });
    expect((await sandbox.create(first)).token).toBeNull();
    expect((await failure(sandbox.create(request({ payerAlias })))).codes).toEqual(['RP06']);
    await sandbox.settle(first.instructionId, 'declined');
    await sandbox.create(request({ payerAlias }));
  });

  it.each([
    ['paid', 'PAID', null, 'paid'],
    ['declined', 'DECLINED', 'RF07', 'declined'],
    ['cancelled', 'ERROR', 'BANKIDCL', 'cancelled'],
    ['error', 'ERROR', 'BANKIDUNKN', 'error'],
    ['timeout', 'ERROR', 'TM01', 'expired'],
  ] as const)('settles %s as Swish would (%s %s → %s) and returns Swish\'s callback body', async (outcome, swishStatus, errorCode, ours) => {
    const payerAlias = freshPayer();
    const input = request({ payerAlias });
    await sandbox.create(input);
    const callback = await sandbox.settle(input.instructionId, outcome);
    expect(callback).toEqual({
      id: input.instructionId,
      payeePaymentReference: input.reference,
      paymentReference: outcome === 'paid' ? expect.stringMatching(/^[0-9A-F]{32}$/) : null,
      callbackUrl: CALLBACK,
      payerAlias: payerAlias.slice(1),
      payeeAlias: '1231181189',
      amount: 149,
      currency: 'SEK',
      message: input.message,
      status: swishStatus,
      dateCreated: T0.toISOString(),
      datePaid: outcome === 'paid' ? T0.toISOString() : null,
      errorCode,
      errorMessage: errorCode === null ? null : expect.any(String),
    });
    const state = await sandbox.status(input.instructionId);
    expect(state).toMatchObject({ status: ours, providerStatus: swishStatus, errorCode });
    expect((await sandbox.pending()).map((p) => p.id)).not.toContain(input.instructionId);
  });

  it('settles once: a second settle and 20 concurrent ones change nothing more', async () => {
    const input = request();
    await sandbox.create(input);
    const outcomes: SandboxOutcome[] = ['paid', 'declined', 'error', 'cancelled', 'timeout'];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => sandbox.settle(input.instructionId, outcomes[i % 5]!)));
    const settled = results.filter((r) => r !== null);
    expect(settled).toHaveLength(1);
    const state = await sandbox.status(input.instructionId);
    expect(state.providerStatus).toBe(settled[0]!.status);
    expect(await sandbox.settle(input.instructionId, 'paid')).toBeNull();
    expect((await sandbox.status(input.instructionId)).providerStatus).toBe(settled[0]!.status);
  });

  it('knows no request it was not given', async () => {
    expect((await failure(sandbox.settle(newInstructionId(), 'paid'))).kind).toBe('notFound');
    expect((await failure(sandbox.status(newInstructionId()))).kind).toBe('notFound');
    expect((await failure(sandbox.cancel(newInstructionId()))).kind).toBe('notFound');
  });

  it('cancels a pending request; one paid meanwhile stays paid', async () => {
    const pending = request();
    await sandbox.create(pending);
    expect(await sandbox.cancel(pending.instructionId)).toMatchObject({ status: 'cancelled', providerStatus: 'CANCELLED' });
    expect(await sandbox.settle(pending.instructionId, 'paid')).toBeNull();

    const paid = request();
    await sandbox.create(paid);
    await sandbox.settle(paid.instructionId, 'paid');
    expect(await sandbox.cancel(paid.instructionId)).toMatchObject({ status: 'paid', providerStatus: 'PAID' });
  });

  it('refuses what Swish refuses, with Swish\'s codes, and keeps nothing', async () => {
    const before = await db.db.selectFrom('sandbox_payment_request').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect((await failure(sandbox.create(request({ reference: 'x'.repeat(36) })))).codes).toEqual(['FF08']);
    expect((await failure(sandbox.create(request({ message: 'x'.repeat(51) })))).codes).toEqual(['RP02']);
    expect((await failure(sandbox.create(request({ message: 'Hej <script>' })))).codes).toEqual(['RP02']);
    expect((await failure(sandbox.create(request({ payerAlias: '0701234567' })))).codes).toEqual(['BE18']);
    expect((await failure(sandbox.create(request({ amount: -1 })))).codes).toEqual(['PA02']);
    expect((await failure(sandbox.create(request({ instructionId: 'not-an-id' })))).codes).toEqual(['RP04']);
    const after = await db.db.selectFrom('sandbox_payment_request').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('has a payment table that takes each instruction id once and one open payment per greetie', async () => {
    const sender = await db.db.insertInto('mobile_user').values({ mobile_number: freshPayer() }).returning('id').executeTakeFirstOrThrow();
    const greetie = await db.db
      .insertInto('greetie')
      .values({ ref_id: 'r'.repeat(22) + String(payerSeq), sender_id: sender.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const instructionId = newInstructionId();
    const row = { greetie_id: greetie.id, provider: 'sandbox' as const, amount: 14900, instruction_id: instructionId };
    await db.db.insertInto('payment').values(row).execute();
    await expect(db.db.insertInto('payment').values({ ...row, instruction_id: newInstructionId() }).execute()).rejects.toThrow(/payment_one_open/);
    await db.db.updateTable('payment').set({ status: 'declined' }).where('instruction_id', '=', instructionId).execute();
    await db.db.insertInto('payment').values({ ...row, instruction_id: newInstructionId() }).execute();
    await expect(db.db.insertInto('payment').values({ ...row, status: 'paid' }).execute()).rejects.toThrow(/payment_instruction/);
    await expect(db.db.insertInto('payment').values({ ...row, status: 'paid', instruction_id: instructionId.toLowerCase() }).execute()).rejects.toThrow(/instruction_id_check/);
  });
});
