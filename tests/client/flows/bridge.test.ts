import { afterEach, describe, expect, it } from 'vitest';
import { assign, createActor, createMachine } from 'xstate';
import { startFlowsBridge } from '../../../src/app/flowsBridge.ts';
import { TAB_ID, inspect, type FlowsMessage } from '../../../src/inspect.ts';

/**
 * The app tab's side of the journey view (src/app/flowsBridge.ts): what it says on the channel
 * once a viewer has said hello — state ids, event types and transitions, the tab's page, and
 * never a context's or an event's contents.
 */

const SECRET_CODE = '493817';
const SECRET_NUMBER = '+46701234567';

const signInMachine = createMachine({
  id: 'signInDemo',
  types: {} as { context: { mobile: string; code: string }; events: { type: 'user.submitNumber'; mobile: string } | { type: 'user.submitCode'; code: string } },
  context: { mobile: '', code: '' },
  initial: 'enteringNumber',
  states: {
    enteringNumber: { on: { 'user.submitNumber': { target: 'enteringCode', actions: assign({ mobile: ({ event }) => event.mobile }) } } },
    enteringCode: { on: { 'user.submitCode': { target: 'signedIn', actions: assign({ code: ({ event }) => event.code }) } } },
    signedIn: {},
  },
});

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((s) => s()));

describe('the /flows bridge', () => {
  it('says nothing until a viewer says hello, then reports what runs, each step, and where the tab is — never a payload', () => {
    const sent: FlowsMessage[] = [];
    const receive = startFlowsBridge((m) => sent.push(m));
    const actor = createActor(signInMachine, { inspect }).start();
    stops.push(() => actor.stop());
    expect(sent).toEqual([]);

    receive({ type: 'viewer.hello', viewerId: 'v1' });
    expect(sent.map((m) => m.type)).toEqual(['app.page', 'actor.snapshot']);
    expect(sent[0]).toEqual({ type: 'app.page', tabId: TAB_ID, page: location.pathname });
    expect(sent[1]).toMatchObject({ machineId: 'signInDemo', states: ['signInDemo', 'signInDemo.enteringNumber'], event: undefined, transitions: [] });

    sent.length = 0;
    actor.send({ type: 'user.submitNumber', mobile: SECRET_NUMBER });
    actor.send({ type: 'user.submitCode', code: SECRET_CODE });
    expect(sent).toMatchObject([
      {
        type: 'actor.snapshot',
        tabId: TAB_ID,
        event: 'user.submitNumber',
        states: ['signInDemo', 'signInDemo.enteringCode'],
        transitions: [{ source: 'signInDemo.enteringNumber', eventType: 'user.submitNumber', targets: ['signInDemo.enteringCode'], index: 0 }],
      },
      { event: 'user.submitCode', states: ['signInDemo', 'signInDemo.signedIn'] },
    ]);
    const text = JSON.stringify(sent);
    expect(text).not.toContain(SECRET_CODE);
    expect(text).not.toContain(SECRET_NUMBER);
    expect(text).not.toContain('context');

    // Moving to another page is reported (back and forward by popstate; pushState by the Navigation API in a browser).
    sent.length = 0;
    history.pushState(null, '', '/greetie/new');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(sent).toEqual([{ type: 'app.page', tabId: TAB_ID, page: '/greetie/new' }]);
    // A page named by an id (the recipient's view of one greetie) says which page, not whose.
    sent.length = 0;
    history.pushState(null, '', '/greetie/view/3f2a9c1e-58d4-4b6f-9a51-0c7e2d8b1a44');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(sent).toEqual([{ type: 'app.page', tabId: TAB_ID, page: '/greetie/view/:id' }]);

    // A viewer that leaves: nothing more is sent.
    receive({ type: 'viewer.bye', viewerId: 'v1' });
    sent.length = 0;
    history.pushState(null, '', '/');
    window.dispatchEvent(new PopStateEvent('popstate'));
    actor.stop();
    expect(sent).toEqual([]);
  });
});
