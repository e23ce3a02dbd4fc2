import { useEffect, useState } from 'react';
import { FLOWS_CHANNEL, TAB_ID, type FlowsMessage } from '../../inspect.ts';

export type LiveActor = Extract<FlowsMessage, { type: 'actor.snapshot' }>;

/**
 * The app's running actors, as other tabs of this browser report them (src/app/flowsBridge.ts): says
 * hello on the channel (and to every app tab that opens later; they then send what runs now) and
 * keeps the latest snapshot per actor. A tab that closes stops reporting; its actors stay listed
 * with their last state until this page reloads.
 */
export function useLiveActors(): LiveActor[] {
  const [actors, setActors] = useState<Record<string, LiveActor>>({});
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const viewerId = Math.random().toString(36).slice(2);
    const channel = new BroadcastChannel(FLOWS_CHANNEL);
    const hello: FlowsMessage = { type: 'viewer.hello', viewerId };
    channel.onmessage = (e: MessageEvent<FlowsMessage>) => {
      const m = e.data;
      // An app tab opened after this one introduces itself: greet it so it starts reporting.
      if (m?.type === 'app.hello' && m.tabId !== TAB_ID) channel.postMessage(hello);
      if (m?.type === 'app.bye') {
        setActors((prev) => Object.fromEntries(Object.entries(prev).filter(([, a]) => a.tabId !== m.tabId)));
      }
      // Only other tabs: this tab's own actors (it runs the app shell too) are not the point here.
      if (m?.type !== 'actor.snapshot' || m.tabId === TAB_ID) return;
      setActors((prev) => {
        const next = { ...prev };
        if (m.status === 'active') next[m.actorId] = m.transitions.length || !prev[m.actorId] ? m : { ...m, transitions: prev[m.actorId]!.transitions, event: prev[m.actorId]!.event };
        else delete next[m.actorId];
        return next;
      });
    };
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
