import { useEffect, useReducer } from 'react';
import { FLOWS_CHANNEL, TAB_ID, type FlowsMessage } from '../../inspect.ts';
import { emptyJourney, journeyReducer, type ActorSnapshot, type JourneyState } from './journey.ts';

export type LiveActor = ActorSnapshot;

/**
 * The app's tabs, their running actors and the journey they take, as the other tabs of this
 * browser report them (src/app/flowsBridge.ts): says hello on the channel (and to every app tab
 * that opens later; they then send what runs now) and folds every message into the journey
 * (./journey.ts). A tab that closes says goodbye: its actors go, its steps stay on the timeline.
 */
export function useJourney(): JourneyState {
  const [journey, dispatch] = useReducer((state: JourneyState, m: FlowsMessage) => journeyReducer(state, m, TAB_ID), emptyJourney);
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const viewerId = Math.random().toString(36).slice(2);
    const channel = new BroadcastChannel(FLOWS_CHANNEL);
    const hello: FlowsMessage = { type: 'viewer.hello', viewerId };
    channel.onmessage = (e: MessageEvent<FlowsMessage>) => {
      const m = e.data;
      // An app tab opened after this one introduces itself: greet it so it starts reporting.
      if (m?.type === 'app.hello' && m.tabId !== TAB_ID) channel.postMessage(hello);
      dispatch(m);
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
  return journey;
}

/** The running actors of a journey, by machine id. */
export function liveActors(journey: JourneyState): LiveActor[] {
  return Object.values(journey.actors).sort((a, b) => a.machineId.localeCompare(b.machineId));
}
