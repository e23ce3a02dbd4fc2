import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { activeStateIds, isMachineSnapshot, microstepTransitions, systemIdOf } from '../../charts/xstate.ts';
import { TAB_ID, observeInspection, pageOf, type FlowsMessage, type LiveTransition } from '../inspect.ts';

/**
 * The /flows live bridge: reports this tab's running machines to the /flows tabs that said hello.
 * Loaded by src/app/inspect.ts only when a /flows tab says hello (a chunk of its own), so a tab
 * nobody watches never loads it. Only state ids, event types and transition sources/indexes
 * leave the app — never context or payloads.
 *
 * Answers the function that takes the channel's messages; `post` sends on the channel.
 */
export function startFlowsBridge(post: (message: FlowsMessage) => void): (message: FlowsMessage) => void {
  const viewers = new Set<string>();
  const actors = new Map<string, AnyActorRef>();
  const pending = new Map<string, LiveTransition[]>();

  const describe = (ref: AnyActorRef, snapshot: AnyMachineSnapshot, event: string | undefined, transitions: LiveTransition[]): FlowsMessage => ({
    type: 'actor.snapshot',
    tabId: TAB_ID,
    page: typeof location !== 'undefined' ? pageOf(location.pathname) : '',
    actorId: ref.sessionId,
    machineId: snapshot.machine.root.id,
    systemId: systemIdOf(ref),
    states: activeStateIds(snapshot),
    status: snapshot.status,
    event,
    transitions,
    at: Date.now(),
  });

  const { running } = observeInspection((event) => {
    if (event.type === '@xstate.microstep') {
      const list = pending.get(event.actorRef.sessionId) ?? [];
      for (const t of microstepTransitions(event)) {
        const group = (t.eventType === '' ? t.source.always : t.source.transitions.get(t.eventType)) ?? [];
        list.push({ source: t.source.id, eventType: String(t.eventType), targets: (t.target ?? []).map((n) => n.id), index: group.indexOf(t) });
      }
      pending.set(event.actorRef.sessionId, list);
      return;
    }
    if (event.type !== '@xstate.snapshot' || !isMachineSnapshot(event.snapshot)) return;
    const ref = event.actorRef as AnyActorRef;
    const transitions = pending.get(ref.sessionId) ?? [];
    pending.delete(ref.sessionId);
    if (event.snapshot.status === 'active') actors.set(ref.sessionId, ref);
    else actors.delete(ref.sessionId);
    if (viewers.size) post(describe(ref, event.snapshot, event.event.type, transitions));
  });
  for (const ref of running) actors.set(ref.sessionId, ref);

  if (typeof window !== 'undefined') {
    window.addEventListener('pagehide', () => viewers.size && post({ type: 'app.bye', tabId: TAB_ID }));
    // The tab's label on /flows names its page: report a move to another page (the router's
    // pushState is seen by the Navigation API where there is one; back and forward by popstate).
    let page = pageOf(location.pathname);
    const moved = () => {
      if (pageOf(location.pathname) === page) return;
      page = pageOf(location.pathname);
      if (viewers.size) post({ type: 'app.page', tabId: TAB_ID, page });
    };
    const navigation = (window as unknown as { navigation?: EventTarget }).navigation;
    navigation?.addEventListener('currententrychange', moved);
    window.addEventListener('popstate', moved);
  }

  return (message) => {
    if (message?.type === 'viewer.hello') {
      viewers.add(message.viewerId);
      if (typeof location !== 'undefined') post({ type: 'app.page', tabId: TAB_ID, page: pageOf(location.pathname) });
      for (const ref of actors.values()) {
        const s = ref.getSnapshot() as unknown;
        if (isMachineSnapshot(s)) post(describe(ref, s, undefined, []));
      }
    } else if (message?.type === 'viewer.bye') {
      viewers.delete(message.viewerId);
    }
  };
}
