import { useEffect, useState } from 'react';
import { FLOWS_CHANNEL, type FlowsMessage } from '../../app/inspect.ts';

export type LiveActor = Extract<FlowsMessage, { type: 'actor.snapshot' }>;

/**
 * The app's running actors, as other tabs of this browser report them (src/app/inspect.ts): says
 * hello on the channel (the app then sends what runs now) and keeps the latest snapshot per actor.
 */
export function useLiveActors(): LiveActor[] {
  const [actors, setActors] = useState<Record<string, LiveActor>>({});
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const viewerId = Math.random().toString(36).slice(2);
    const channel = new BroadcastChannel(FLOWS_CHANNEL);
    channel.onmessage = (e: MessageEvent<FlowsMessage>) => {
      const m = e.data;
      if (m?.type !== 'actor.snapshot') return;
      setActors((prev) => {
        const next = { ...prev };
        if (m.status === 'active') next[m.actorId] = m.transitions.length || !prev[m.actorId] ? m : { ...m, transitions: prev[m.actorId]!.transitions, event: prev[m.actorId]!.event };
        else delete next[m.actorId];
        return next;
      });
    };
    const hello: FlowsMessage = { type: 'viewer.hello', viewerId };
    channel.postMessage(hello);
    const bye = () => channel.postMessage({ type: 'viewer.bye', viewerId } satisfies FlowsMessage);
    window.addEventListener('pagehide', bye);
    return () => {
      window.removeEventListener('pagehide', bye);
      bye();
      channel.close();
    };
  }, []);
  return Object.values(actors).sort((a, b) => a.machineId.localeCompare(b.machineId));
}
