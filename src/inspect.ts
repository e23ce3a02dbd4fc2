import type { AnyActorRef, InspectionEvent } from 'xstate';
import { forgetOnNewPage } from './pageMemory.ts';

/**
 * Inspection of the app's actors. Give `inspect` to every actor the app starts:
 *
 *   createActor(machine, { inspect })            // the root actor (src/app/AppActors.tsx)
 *   useActorRef(machine, { inspect })            // a route-level actor (loader, redeem, …)
 *
 * By itself it only keeps which actors run. The viewers are started by the app
 * (src/app/inspect.ts), each only where it can be used: the /flows live view when a /flows tab
 * (sandbox on, or development) says hello, Stately's inspector in development with `?inspect`.
 * Shared code, so pages can import it; the viewers stay in the app.
 */

// ---- The /flows channel: what an app tab and a /flows tab say to each other. ----

export const FLOWS_CHANNEL = 'greetie-flows';

export interface LiveTransition {
  source: string;
  eventType: string;
  targets: string[];
  /** Position among the source state's transitions for that event (which guarded branch). */
  index: number;
}

/**
 * The tab's page as the channel names it: the pathname, with every segment that looks like an id
 * or a token (8 characters or more with a digit in them: a greetie's id in /greetie/view/…) shown
 * as `:id`, so the label says which page without saying whose.
 */
export function pageOf(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (segment.length >= 8 && /\d/.test(segment) ? ':id' : segment))
    .join('/');
}

/** This tab: a viewer ignores its own tab's actors. */
export const TAB_ID = Math.random().toString(36).slice(2);

/** Only state ids and event types cross the channel, never context or event payloads (codes, tokens). */
export type FlowsMessage =
  | { type: 'app.hello'; tabId: string; /** Where that tab is (pathname only). */ page?: string }
  | { type: 'app.bye'; tabId: string }
  /** The tab moved to another page (pathname only); sent by the bridge while a viewer listens. */
  | { type: 'app.page'; tabId: string; page: string }
  | { type: 'viewer.hello'; viewerId: string }
  | { type: 'viewer.bye'; viewerId: string }
  | {
      type: 'actor.snapshot';
      tabId: string;
      /** Where that tab is (pathname only). */
      page: string;
      actorId: string;
      /** The machine's id (its root state id). */
      machineId: string;
      systemId?: string;
      states: string[];
      status: string;
      /** The event that led here and the transitions it took (none for a re-sent snapshot). */
      event?: string;
      transitions: LiveTransition[];
      at: number;
    };

// ---- The observer. ----

export type InspectionObserver = (event: InspectionEvent) => void;

const running = new Map<string, AnyActorRef>();
const observers = new Set<InspectionObserver>();
forgetOnNewPage(() => {
  running.clear();
  observers.clear();
});

/** The inspection observer to give every app actor (see above). */
export function inspect(event: InspectionEvent): void {
  if (event.type === '@xstate.snapshot') {
    if ((event.snapshot as { status?: unknown }).status === 'active') running.set(event.actorRef.sessionId, event.actorRef as AnyActorRef);
    else running.delete(event.actorRef.sessionId);
  }
  for (const observer of observers) observer(event);
}

/**
 * Sends every later inspection event to `observer` too, and answers the actors running now (a
 * viewer started late reports them). Call the returned function to stop.
 */
export function observeInspection(observer: InspectionObserver): { running: AnyActorRef[]; stop: () => void } {
  observers.add(observer);
  return { running: [...running.values()], stop: () => void observers.delete(observer) };
}
