import type { FlowsMessage, LiveTransition } from '../../inspect.ts';

/**
 * The journey across tabs, as /flows hears it on the channel (src/app/flowsBridge.ts): every app
 * tab with a number in the order it was first heard of ('Flik 2 · /greetie/new'), its running
 * actors by machine, and a timeline of the transitions they took. Pure: a reducer over the
 * channel's messages, so the timeline is tested from a list of messages. Only what the bridge
 * sends is kept — state ids, event types, transition sources — never context or payloads.
 */

/** The timeline keeps the newest steps only; older ones fall off its start. */
export const JOURNEY_LIMIT = 200;

export type ActorSnapshot = Extract<FlowsMessage, { type: 'actor.snapshot' }>;

export interface JourneyTab {
  id: string;
  /** 1, 2, … in the order this viewer first heard of the tab. */
  number: number;
  /** The tab's page (pathname only), as last reported. */
  page: string;
  /** The tab said goodbye (closed or reloaded); its steps stay on the timeline. */
  closed: boolean;
}

export interface JourneyStep {
  /** Increasing, never reused: identifies a step while it is on the timeline. */
  seq: number;
  tabId: string;
  /** The tab's page when the step was taken. */
  page: string;
  actorId: string;
  /** The machine's id (its root state id). */
  machineId: string;
  systemId?: string;
  /** The event that was taken (`xstate.init` when the actor started). */
  event: string;
  /** The state ids the actor was in after the step, every level. */
  states: string[];
  transitions: LiveTransition[];
  /** The actor's status after the step (`active`, `done`, `stopped`, `error`). */
  status: string;
  at: number;
  /** How many times in a row the same actor took this same step (a countdown's ticks are one line). */
  repeat: number;
}

export interface JourneyState {
  tabs: JourneyTab[];
  /** The latest snapshot of each running actor, by actor id. */
  actors: Record<string, ActorSnapshot>;
  steps: JourneyStep[];
  nextSeq: number;
}

export const emptyJourney: JourneyState = { tabs: [], actors: {}, steps: [], nextSeq: 1 };

function withTab(tabs: JourneyTab[], id: string, page: string | undefined, closed = false): JourneyTab[] {
  const known = tabs.find((t) => t.id === id);
  if (!known) return [...tabs, { id, number: tabs.length + 1, page: page ?? '', closed }];
  if ((page === undefined || page === known.page) && known.closed === closed) return tabs;
  return tabs.map((t) => (t.id === id ? { ...t, page: page ?? t.page, closed } : t));
}

/**
 * One message from the channel. `ownTab` is this viewer's tab (it runs the app shell too; its
 * own actors are not the point here).
 */
export function journeyReducer(state: JourneyState, m: FlowsMessage, ownTab: string): JourneyState {
  if (!m || typeof m !== 'object' || !('tabId' in m) || m.tabId === ownTab) return state;
  switch (m.type) {
    case 'app.hello':
      return { ...state, tabs: withTab(state.tabs, m.tabId, m.page) };
    case 'app.page':
      return { ...state, tabs: withTab(state.tabs, m.tabId, m.page) };
    case 'app.bye':
      if (!state.tabs.some((t) => t.id === m.tabId)) return state;
      return {
        ...state,
        tabs: withTab(state.tabs, m.tabId, undefined, true),
        actors: Object.fromEntries(Object.entries(state.actors).filter(([, a]) => a.tabId !== m.tabId)),
      };
    case 'actor.snapshot': {
      const tabs = withTab(state.tabs, m.tabId, m.page);
      const actors = { ...state.actors };
      const prev = actors[m.actorId];
      if (m.status === 'active') {
        // A snapshot sent again for a new viewer carries no transitions: keep the last ones taken.
        actors[m.actorId] = m.transitions.length || !prev ? m : { ...m, transitions: prev.transitions, event: prev.event };
      } else {
        delete actors[m.actorId];
      }
      // A step is an event that moved the actor (or started or stopped it); a snapshot sent again,
      // or an event no transition took, is not.
      const moved = m.event !== undefined && (m.transitions.length > 0 || m.event === 'xstate.init' || m.status !== 'active');
      if (!moved) return { ...state, tabs, actors };
      const last = state.steps[state.steps.length - 1];
      if (last && sameStep(last, m)) {
        return { ...state, tabs, actors, steps: [...state.steps.slice(0, -1), { ...last, repeat: last.repeat + 1, at: m.at, page: m.page }] };
      }
      const step: JourneyStep = {
        seq: state.nextSeq,
        tabId: m.tabId,
        page: m.page,
        actorId: m.actorId,
        machineId: m.machineId,
        ...(m.systemId ? { systemId: m.systemId } : {}),
        event: m.event!,
        states: m.states,
        transitions: m.transitions,
        status: m.status,
        at: m.at,
        repeat: 1,
      };
      const steps = [...state.steps, step];
      return { tabs, actors, steps: steps.length > JOURNEY_LIMIT ? steps.slice(steps.length - JOURNEY_LIMIT) : steps, nextSeq: state.nextSeq + 1 };
    }
    default:
      return state;
  }
}

const sameTransitions = (a: LiveTransition[], b: LiveTransition[]) =>
  a.length === b.length && a.every((t, i) => t.source === b[i]!.source && t.eventType === b[i]!.eventType && t.index === b[i]!.index);

/** The same actor took the same transitions again and is where it was (a countdown's tick). */
function sameStep(step: JourneyStep, m: ActorSnapshot): boolean {
  return (
    step.actorId === m.actorId &&
    step.tabId === m.tabId &&
    step.event === m.event &&
    step.status === m.status &&
    step.states.join() === m.states.join() &&
    sameTransitions(step.transitions, m.transitions)
  );
}

/** The innermost states of a list of state ids (one per parallel region), relative to the machine. */
export function leafStates(states: string[], machineId: string): string[] {
  const leaves = states.filter((s) => !states.some((o) => o !== s && o.startsWith(`${s}.`)));
  return leaves.map((s) => (s.startsWith(`${machineId}.`) ? s.slice(machineId.length + 1) : s));
}
