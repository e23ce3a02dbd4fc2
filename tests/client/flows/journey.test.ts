import { describe, expect, it } from 'vitest';
import type { FlowsMessage } from '../../../src/inspect.ts';
import { JOURNEY_LIMIT, emptyJourney, journeyReducer, leafStates, type ActorSnapshot, type JourneyState } from '../../../src/pages/flows/journey.ts';

/** The journey across tabs as a reducer over the channel's messages (src/pages/flows/journey.ts). */

const OWN = 'viewer-tab';

function snapshot(over: Partial<ActorSnapshot> = {}): ActorSnapshot {
  return {
    type: 'actor.snapshot',
    tabId: 'tab-a',
    page: '/auth/jwt/login',
    actorId: 'x:1',
    machineId: 'auth',
    states: ['auth', 'auth.unauthenticated', 'auth.unauthenticated.enteringNumber'],
    status: 'active',
    event: 'xstate.done.actor.restoreSession',
    transitions: [{ source: 'auth.loading', eventType: 'xstate.done.actor.restoreSession', targets: ['auth.unauthenticated'], index: 1 }],
    at: 1_000,
    ...over,
  };
}

const run = (messages: FlowsMessage[], from: JourneyState = emptyJourney) => messages.reduce((s, m) => journeyReducer(s, m, OWN), from);

describe('the journey reducer', () => {
  it('numbers the tabs in the order they are heard of and labels them by their page, which follows the tab', () => {
    const j = run([
      { type: 'app.hello', tabId: 'tab-a', page: '/' },
      snapshot({ tabId: 'tab-b', page: '/greetie/new', actorId: 'y:1' }),
      { type: 'app.page', tabId: 'tab-a', page: '/auth/jwt/login' },
    ]);
    expect(j.tabs.map((t) => [t.number, t.page])).toEqual([
      [1, '/auth/jwt/login'],
      [2, '/greetie/new'],
    ]);
  });

  it('keeps each running actor’s latest snapshot and makes each move a step; a snapshot sent again is not a step', () => {
    const j = run([
      snapshot({ event: 'xstate.init', states: ['auth', 'auth.loading'], transitions: [] }),
      snapshot(),
      // Sent again for a viewer that just said hello: no event, no transitions.
      snapshot({ event: undefined, transitions: [] }),
      // An event no transition took.
      snapshot({ event: 'user.typing', transitions: [] }),
    ]);
    expect(j.steps.map((s) => [s.seq, s.event, s.states.at(-1)])).toEqual([
      [1, 'xstate.init', 'auth.loading'],
      [2, 'xstate.done.actor.restoreSession', 'auth.unauthenticated.enteringNumber'],
    ]);
    // The re-sent snapshot keeps the transitions last taken, for the chart's highlight.
    expect(j.actors['x:1']!.transitions).toHaveLength(1);
    expect(j.actors['x:1']!.event).toBe('xstate.done.actor.restoreSession');
  });

  it('ignores its own tab', () => {
    expect(run([{ type: 'app.hello', tabId: OWN, page: '/flows' }, snapshot({ tabId: OWN })])).toEqual(emptyJourney);
  });

  it('folds the same step repeated by the same actor into one (a countdown’s ticks)', () => {
    const tick = snapshot({
      event: 'xstate.after.countdownTick.auth.unauthenticated.enteringCode.waitingToResend',
      states: ['auth', 'auth.unauthenticated', 'auth.unauthenticated.enteringCode', 'auth.unauthenticated.enteringCode.waitingToResend'],
      transitions: [{ source: 'auth.unauthenticated.enteringCode.waitingToResend', eventType: 'xstate.after.countdownTick.auth.unauthenticated.enteringCode.waitingToResend', targets: [], index: 0 }],
    });
    const j = run([snapshot(), tick, { ...tick, at: 2_000 }, { ...tick, at: 3_000 }, snapshot({ actorId: 'x:2' }), { ...tick, at: 4_000 }]);
    expect(j.steps.map((s) => [s.actorId, s.repeat])).toEqual([
      ['x:1', 1],
      ['x:1', 3],
      ['x:2', 1],
      ['x:1', 1],
    ]);
    expect(j.steps[1]!.at).toBe(3_000);
  });

  it('a stopped actor leaves the running list but its last step stays; a closed tab keeps its steps', () => {
    let j = run([snapshot(), snapshot({ actorId: 'x:2', machineId: 'loader', states: ['loader', 'loader.done'], event: 'xstate.done.actor.load', status: 'done' })]);
    expect(Object.keys(j.actors)).toEqual(['x:1']);
    expect(j.steps.map((s) => s.status)).toEqual(['active', 'done']);
    j = run([{ type: 'app.bye', tabId: 'tab-a' }], j);
    expect(j.actors).toEqual({});
    expect(j.tabs[0]).toMatchObject({ number: 1, closed: true });
    expect(j.steps).toHaveLength(2);
    // Back again (a reload): the same number, open.
    j = run([{ type: 'app.hello', tabId: 'tab-a', page: '/' }], j);
    expect(j.tabs[0]).toMatchObject({ number: 1, closed: false, page: '/' });
  });

  it(`keeps the newest ${JOURNEY_LIMIT} steps`, () => {
    const messages = Array.from({ length: JOURNEY_LIMIT + 50 }, (_, i) => snapshot({ actorId: `x:${i}`, at: i }));
    const j = run(messages);
    expect(j.steps).toHaveLength(JOURNEY_LIMIT);
    expect(j.steps[0]!.seq).toBe(51);
    expect(j.steps.at(-1)!.seq).toBe(JOURNEY_LIMIT + 50);
  });

  it('ignores what is not a message of the channel', () => {
    expect(run([null as unknown as FlowsMessage, { type: 'viewer.hello', viewerId: 'v' }])).toEqual(emptyJourney);
  });

  it('names the innermost states, one per parallel region, relative to the machine', () => {
    expect(leafStates(['compose', 'compose.editing', 'compose.editing.steps', 'compose.editing.steps.gifts', 'compose.editing.overlay', 'compose.editing.overlay.idle'], 'compose')).toEqual([
      'editing.steps.gifts',
      'editing.overlay.idle',
    ]);
  });
});
