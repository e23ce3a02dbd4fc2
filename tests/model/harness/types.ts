import type { AnyActorLogic, AnyActorRef, AnyMachineSnapshot, AnyStateMachine, EventObject, SimulatedClock } from 'xstate';
import type { FakeActors } from './fakes.ts';
import type { ModelPath } from './model.ts';

/** An event's payload without its `type`. */
export type EventSample = Record<string, unknown>;

/**
 * Machine-level test hooks: tests/model/hooks/<machine id>.ts, default export.
 * Everything is optional; a machine without hooks still gets paths where it can.
 */
export interface MachineHooks {
  /**
   * Payload samples per event type, one per guarded branch you want taken. Without samples an event
   * is sent as `{ type }`; `xstate.done.actor.<id>` as `{ output: undefined }` and
   * `xstate.error.actor.<id>` as `{ error: Error }`. Done/error samples give `output` / `error`.
   * A wildcard descriptor (`*`, `user.*`) is only sent with samples, each naming its own `type`.
   */
  events?: Record<string, EventSample[]>;
  /** Input the machine starts with. */
  input?: unknown;
  /**
   * What makes two snapshots the same state for path generation. Default: value + context.
   * Must give a finite number of states (e.g. count list items instead of listing their ids).
   */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
  /** Extra machine-level checks, run after each step whose snapshot `matches(key)` ('*': always). */
  states?: Record<string, (snapshot: AnyMachineSnapshot) => void>;
  /** Real actor logic to use at machine level instead of the generic never-settling fakes. */
  actors?: Record<string, AnyActorLogic>;
  /**
   * Named event sequences run like generated paths, for behaviour the shortest paths do not reach
   * (e.g. "six messages: the sixth waits"). Sent from the initial state.
   */
  scenarios?: Record<string, Array<{ type: string } & Record<string, unknown>>>;
  /** Most states explored before falling back to state values only. Default 2000. */
  limit?: number;
}

export interface UiEnv {
  /** The machine under test, its actors replaced by the fakes (and the hook's `actors`). */
  machine: AnyStateMachine;
  fakes: FakeActors;
  /** Give it to the actor (`createActor(machine, { clock })`) so delays pass when the harness says. */
  clock: SimulatedClock;
  /** Set by `render` when the binding holds the actor itself (lets the harness compare snapshots). */
  actor?: AnyActorRef;
  /** The root actor the binding started, if not `actor` itself: stopped after the path. */
  root?: AnyActorRef;
  /** The path being run (a binding may pick the page that can produce it). */
  path?: ModelPath;
}

export type UiEventExecutor = (env: UiEnv, event: EventObject) => Promise<void> | void;
export type UiStateCheck = (env: UiEnv, snapshot: AnyMachineSnapshot) => Promise<void> | void;

/**
 * UI binding: tests/model/ui/<machine id>.tsx, default export. How to render the route or component
 * that uses the machine, how a user (or the server, through the fakes) performs each event, and how
 * each state looks to the user.
 */
export interface UiBinding {
  render: (env: UiEnv) => Promise<void> | void;
  /**
   * One executor per event type. Done/error of invoked actors default to resolving/rejecting the
   * fake, delays to advancing `clock`; every other event needs an executor here.
   */
  events?: Record<string, UiEventExecutor>;
  /** Checks keyed by a state the snapshot `matches(key)` (or '*'): every step must match one. */
  states: Record<string, UiStateCheck>;
  /** Return a reason to run a path at machine level only (the UI cannot produce it). */
  skip?: (path: ModelPath) => string | undefined;
  cleanup?: () => void;
}

export function defineHooks(hooks: MachineHooks): MachineHooks {
  return hooks;
}

export function defineUi(binding: UiBinding): UiBinding {
  return binding;
}
