import { createActor } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toastsMachine } from '../../machines/toasts.ts';
import { FLOWS_CHANNEL, inspect, type FlowsMessage } from '../../src/inspect.ts';
import { startInspection } from '../../src/app/inspect.ts';

describe('the /flows live bridge', () => {
  const channels: BroadcastChannel[] = [];
  afterEach(() => channels.splice(0).forEach((c) => c.close()));

  it('introduces itself, stays silent about actors until a viewer says hello, then reports state ids and transitions, never payloads', async () => {
    const viewer = new BroadcastChannel(FLOWS_CHANNEL);
    channels.push(viewer);
    const received: FlowsMessage[] = [];
    viewer.onmessage = (e: MessageEvent<FlowsMessage>) => {
      if (e.data.type === 'actor.snapshot') received.push(e.data);
    };
    const posted = vi.spyOn(BroadcastChannel.prototype, 'postMessage');
    // Started before the app's viewers are: the bridge, loaded later, still reports it.
    const actor = createActor(toastsMachine, { inspect }).start();
    startInspection();
    actor.send({ type: 'toast.show', message: 'Hemlig kod 123456' });
    // Only its introduction (for viewers already open), nothing about the actors.
    expect(posted.mock.calls.map(([m]) => (m as FlowsMessage).type)).toEqual(['app.hello']);
    posted.mockRestore();

    viewer.postMessage({ type: 'viewer.hello', viewerId: 'v1' } satisfies FlowsMessage);
    await expect.poll(() => received.length).toBeGreaterThan(0);
    expect(received[0]).toMatchObject({ type: 'actor.snapshot', machineId: 'toasts', states: ['toasts', 'toasts.active'], status: 'active' });

    actor.send({ type: 'user.dismiss', id: 'toast-1' });
    await expect.poll(() => received.some((m) => m.type === 'actor.snapshot' && m.event === 'user.dismiss')).toBe(true);
    const last = received.findLast((m) => m.type === 'actor.snapshot' && m.event === 'user.dismiss');
    expect(last).toMatchObject({ transitions: [{ source: 'toasts.active', eventType: 'user.dismiss', targets: [], index: 0 }] });
    expect(JSON.stringify(received)).not.toContain('123456');
    viewer.postMessage({ type: 'viewer.bye', viewerId: 'v1' } satisfies FlowsMessage);
    actor.stop();
  });

  it("names a long-lived actor by its systemId (the app's toasts, auth)", async () => {
    const { appMachine } = await import('../../machines/app.ts');
    const { createAppActor } = await import('../../src/app/AppActors.tsx');
    const viewer = new BroadcastChannel(FLOWS_CHANNEL);
    channels.push(viewer);
    const received: FlowsMessage[] = [];
    viewer.onmessage = (e: MessageEvent<FlowsMessage>) => {
      if (e.data.type === 'actor.snapshot') received.push(e.data);
    };
    const root = createAppActor(appMachine).start();
    startInspection();
    viewer.postMessage({ type: 'viewer.hello', viewerId: 'v2' } satisfies FlowsMessage);
    await expect.poll(() => received.some((m) => m.type === 'actor.snapshot' && m.machineId === 'toasts')).toBe(true);
    expect(received.find((m) => m.type === 'actor.snapshot' && m.machineId === 'toasts')).toMatchObject({ systemId: 'toasts' });
    viewer.postMessage({ type: 'viewer.bye', viewerId: 'v2' } satisfies FlowsMessage);
    root.stop();
  });
});
