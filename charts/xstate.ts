import {
  createEmptyActor,
  type AnyActorRef,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type InspectionEvent,
} from 'xstate';

/**
 * The one place that reads XState's private fields. The live bridge (src/app/flowsBridge.ts) and
 * the model-based test harness (tests/model/harness) need three things XState keeps to itself:
 * the active state nodes of a snapshot (`_nodes`), the transitions a microstep took
 * (`_transitions` on `@xstate.microstep` inspection events) and an actor scope that runs a pure
 * `transition()` without starting anything (`_parent`, `system._sendInspectionEvent`). Plus an
 * actor's systemId, public on `Actor` but not on the `ActorRef` type (earlier releases called it `_systemId`; the
 * bridge read that name and, on xstate 5.33, always got `undefined`).
 *
 * tests/charts/xstate.test.ts fails when an upgrade of xstate renames or reshapes any of them.
 */

/** Whether a value is a state machine's snapshot (not a promise's, callback's, …). */
export function isMachineSnapshot(value: unknown): value is AnyMachineSnapshot {
  return typeof value === 'object' && value !== null && 'machine' in value && '_nodes' in value;
}

/** The state nodes a snapshot is in, every level, root first. */
export function activeStateNodes(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return (snapshot as unknown as { _nodes: AnyStateNode[] })._nodes;
}

/** The ids of the state nodes a snapshot is in (`toasts`, `toasts.active`). */
export function activeStateIds(snapshot: AnyMachineSnapshot): string[] {
  return activeStateNodes(snapshot).map((n) => n.id);
}

/** The systemId an actor was started with (`spawnChild(logic, { systemId })`), if any. */
export function systemIdOf(ref: AnyActorRef): string | undefined {
  const id = (ref as unknown as { systemId?: unknown }).systemId;
  return typeof id === 'string' ? id : undefined;
}

/** The transition definitions a `@xstate.microstep` inspection event took (none for any other event). */
export function microstepTransitions(event: InspectionEvent): AnyTransitionDefinition[] {
  if (event.type !== '@xstate.microstep') return [];
  return (event as unknown as { _transitions?: AnyTransitionDefinition[] })._transitions ?? [];
}

/** The actor that started this one, if any. */
export function parentOf(ref: AnyActorRef): AnyActorRef | undefined {
  return (ref as unknown as { _parent?: AnyActorRef })._parent;
}

/**
 * An actor scope for `machine.transition(snapshot, event, scope)` that starts nothing: invoked
 * actors and delays never run, actions go nowhere (a parent stub lets `sendParent` resolve), and
 * every microstep's transitions are handed to `onMicrostep`.
 */
export function inertActorScope(onMicrostep: (transitions: AnyTransitionDefinition[]) => void): AnyActorScope {
  const empty = createEmptyActor();
  (empty as unknown as { _parent: unknown })._parent = createEmptyActor();
  const system = Object.create(empty.system) as typeof empty.system;
  (system as unknown as { _sendInspectionEvent: (e: InspectionEvent) => void })._sendInspectionEvent = (e) => {
    if (e.type === '@xstate.microstep') onMicrostep(microstepTransitions(e));
  };
  return {
    self: empty,
    logger: () => {},
    id: '',
    sessionId: 'model',
    defer: () => {},
    system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
}
