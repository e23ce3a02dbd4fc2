import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { SandboxSms } from '../../contract/sandbox.ts';
import { OUTBOX_POLL_MS, smsOutboxMachine } from '../../machines/smsOutbox.ts';

function manualRead() {
  const calls: { resolve: (v: SandboxSms[]) => void; reject: (e: unknown) => void; aborted: () => boolean }[] = [];
  const logic = fromPromise<SandboxSms[]>(
    ({ signal }) =>
      new Promise((resolve, reject) => {
        calls.push({ resolve, reject, aborted: () => signal.aborted });
      }),
  );
  return { calls, logic };
}

const sms = (body: string): SandboxSms => ({ to: '+46701234567', body, sentAt: '2026-11-21T08:00:00.000Z' });

function start() {
  const read = manualRead();
  const actor = createActor(smsOutboxMachine.provide({ actors: { readOutbox: read.logic } })).start();
  const tags = () => [...actor.getSnapshot().tags];
  const bodies = () => actor.getSnapshot().context.messages.map((m) => m.body);
  return { actor, calls: read.calls, tags, bodies };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('smsOutbox machine', () => {
  it('reads at once, then again every poll interval (not before)', async () => {
    const t = start();
    expect(t.tags()).toEqual(['loading']);
    expect(t.calls).toHaveLength(1);
    t.calls[0]!.resolve([sms('Kod 111111')]);
    await settle();
    expect(t.tags()).toEqual(['showing']);
    expect(t.bodies()).toEqual(['Kod 111111']);
    await vi.advanceTimersByTimeAsync(OUTBOX_POLL_MS - 1);
    expect(t.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.calls).toHaveLength(2);
    // While it reads again the messages shown stay; the answer replaces them.
    expect(t.bodies()).toEqual(['Kod 111111']);
    t.calls[1]!.resolve([sms('Kod 222222'), sms('Kod 111111')]);
    await settle();
    expect(t.bodies()).toEqual(['Kod 222222', 'Kod 111111']);
    await vi.advanceTimersByTimeAsync(OUTBOX_POLL_MS);
    expect(t.calls).toHaveLength(3);
  });

  it('reads now when the person asks, without waiting for the interval', async () => {
    const t = start();
    t.calls[0]!.resolve([]);
    await settle();
    t.actor.send({ type: 'user.refresh' });
    expect(t.calls).toHaveLength(2);
  });

  it('a failed read says so, keeps reading, and shows the messages once a read works again', async () => {
    const t = start();
    t.calls[0]!.reject(new Error('500'));
    await settle();
    expect(t.tags()).toEqual(['failed']);
    await vi.advanceTimersByTimeAsync(OUTBOX_POLL_MS);
    expect(t.calls).toHaveLength(2);
    expect(t.tags()).toEqual(['failed']);
    t.calls[1]!.reject(new Error('500'));
    await settle();
    t.actor.send({ type: 'user.refresh' });
    t.calls[2]!.resolve([sms('Kod 333333')]);
    await settle();
    expect(t.tags()).toEqual(['showing']);
    expect(t.bodies()).toEqual(['Kod 333333']);
  });

  it('a failed read again after messages were shown goes to failed', async () => {
    const t = start();
    t.calls[0]!.resolve([sms('Kod 111111')]);
    await settle();
    t.actor.send({ type: 'user.refresh' });
    t.calls[1]!.reject(new Error('offline'));
    await settle();
    expect(t.tags()).toEqual(['failed']);
  });

  it('stops reading when the page goes away (the timer and the running read)', async () => {
    const t = start();
    t.calls[0]!.resolve([]);
    await settle();
    await vi.advanceTimersByTimeAsync(OUTBOX_POLL_MS);
    t.actor.stop();
    expect(t.calls[1]!.aborted()).toBe(true);
    await vi.advanceTimersByTimeAsync(OUTBOX_POLL_MS * 3);
    expect(t.calls).toHaveLength(2);
  });
});
