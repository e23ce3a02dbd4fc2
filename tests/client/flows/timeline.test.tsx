import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLOWS_CHANNEL, type FlowsMessage } from '../../../src/inspect.ts';
import { charts, coverage } from '../../charts/machines.ts';
import { diagram, renderFlows, stubResizeObserver } from './render.tsx';

/**
 * The journey view of /flows: the timeline drawn from what app tabs report on the channel,
 * stepping back through it (pointer and keyboard) selects the machine and highlights the step's
 * state; and a transition's covering test paths, each a link that selects its path.
 */

const auth = charts.find((c) => c.id === 'auth')!;
const authCoverage = coverage.machines.find((m) => m.id === 'auth')!;
// A sign-in from start to signed in, as the generated paths have it.
const signIn = authCoverage.paths.find((p) => p.steps.at(-1)!.event === 'xstate.done.actor.login')!;

/** The snapshots an app tab's bridge sends while its auth actor walks the sign-in path. */
function signInMessages(tabId: string, page: string): FlowsMessage[] {
  return signIn.steps.map((step, i) => ({
    type: 'actor.snapshot',
    tabId,
    page,
    actorId: `${tabId}:auth`,
    machineId: auth.root,
    systemId: 'auth',
    states: step.states,
    status: 'active',
    event: step.event,
    transitions: step.transitions.map((key) => {
      const tr = auth.transitions.find((x) => x.key === key)!;
      return { source: tr.source, eventType: tr.eventType, targets: tr.targets, index: tr.index };
    }),
    at: Date.UTC(2026, 10, 23, 9, 0, i),
  }));
}

let app: BroadcastChannel;
async function send(...messages: FlowsMessage[]) {
  for (const m of messages) {
    await act(async () => {
      app.postMessage(m);
      // BroadcastChannel delivers on a later task.
      await new Promise((r) => setTimeout(r, 5));
    });
  }
}

const leafOf = (states: string[]) => states.filter((s) => !states.some((o) => o.startsWith(`${s}.`)))[0]!;
const stateBox = (svg: HTMLElement, id: string) => svg.querySelector(`[data-state-id="${id}"]`)!;

describe('/flows journey', () => {
  beforeEach(() => {
    window.scrollTo = () => {};
    stubResizeObserver();
    app = new BroadcastChannel(FLOWS_CHANNEL);
  });
  afterEach(() => {
    app.close();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('draws the timeline from the tabs’ messages: each tab numbered and labelled by its page, its actors by machine', async () => {
    renderFlows('/flows?machine=toasts');
    await diagram();
    const journey = screen.getByRole('region', { name: 'Resan genom appen' });
    expect(within(journey).getByText('Ingen flik med appen hörs av än.')).toBeInTheDocument();

    await send({ type: 'app.hello', tabId: 'sender', page: '/' }, { type: 'app.page', tabId: 'sender', page: '/auth/jwt/login' }, ...signInMessages('sender', '/auth/jwt/login'));
    await send({ type: 'app.hello', tabId: 'recipient', page: '/greetie/abc' });

    const tabs = within(journey).getByRole('list', { name: 'Flikar med appen' });
    expect(within(tabs).getByText('Flik 1 · /auth/jwt/login')).toBeInTheDocument();
    expect(within(tabs).getByText('Flik 2 · /greetie/abc')).toBeInTheDocument();
    // The sender's auth actor, where it is now, linked to its chart.
    expect(within(tabs).getByRole('link', { name: 'auth' })).toHaveAttribute('href', '/flows?machine=auth');
    expect(within(tabs).getByText(leafOf(signIn.steps.at(-1)!.states).slice('auth.'.length))).toBeInTheDocument();

    const timeline = within(journey).getByRole('list', { name: 'Stegen i tidsordning' });
    const steps = within(timeline).getAllByRole('button');
    expect(steps).toHaveLength(signIn.steps.length);
    expect(steps[0]).toHaveTextContent(/Flik 1 · \/auth\/jwt\/login.*auth: startade → loading/);
    expect(steps[2]).toHaveTextContent(/auth: user\.submitNumber → unauthenticated\.requestingCode/);
    expect(steps.at(-1)).toHaveTextContent(/auth: login klar → authenticated/);
    expect(within(journey).getByRole('status')).toHaveTextContent(`Följer appen live (${signIn.steps.length} steg hittills).`);
    // Nothing from a payload ever reaches the page: the messages carry none, and nothing but ids shows.
    expect(journey.textContent).not.toMatch(/\+46|\d{6}/);
  }, 20_000);

  it('stepping back selects the step’s machine and highlights its state; keyboard too; Följ live lets go', async () => {
    const user = userEvent.setup();
    const router = renderFlows('/flows?machine=toasts');
    await diagram();
    await send(...signInMessages('sender', '/auth/jwt/login'));
    const journey = screen.getByRole('region', { name: 'Resan genom appen' });
    const n = signIn.steps.length;

    await user.click(within(journey).getByRole('button', { name: 'Ett steg bakåt' }));
    // The newest step, on the auth chart.
    await waitFor(() => expect(router.state.location.search).toBe('?machine=auth'));
    let svg = await screen.findByRole('group', { name: 'Diagram över Inloggning' }, { timeout: 10_000 });
    await waitFor(() => expect(stateBox(svg, leafOf(signIn.steps[n - 1]!.states))).toHaveClass('active'));
    expect(within(journey).getByRole('status')).toHaveTextContent(`Visar steg ${n} av ${n}: Flik 1 · /auth/jwt/login, auth: login klar → authenticated`);

    await user.click(within(journey).getByRole('button', { name: 'Ett steg bakåt' }));
    const before = signIn.steps[n - 2]!;
    await waitFor(() => expect(stateBox(svg, leafOf(before.states))).toHaveClass('active'));
    expect(stateBox(svg, leafOf(signIn.steps[n - 1]!.states))).not.toHaveClass('active');
    // The transition that step took is drawn as taken.
    expect(svg.querySelector(`[data-transition-key="${CSS.escape(before.transitions[0]!)}"]`)).toHaveClass('taken');
    expect(screen.getByText(/grönt: det valda steget på tidslinjen/)).toBeInTheDocument();

    // Keyboard: the selected step is the timeline's one tab stop; arrows and Home move along it.
    const timeline = within(journey).getByRole('list', { name: 'Stegen i tidsordning' });
    const current = within(timeline).getByRole('button', { current: 'step' });
    expect(current).toHaveAttribute('tabindex', '0');
    current.focus();
    await user.keyboard('{ArrowUp}');
    const third = signIn.steps[n - 3]!;
    expect(within(timeline).getByRole('button', { current: 'step' })).toHaveFocus();
    svg = screen.getByRole('group', { name: 'Diagram över Inloggning' });
    await waitFor(() => expect(stateBox(svg, leafOf(third.states))).toHaveClass('active'));
    await user.keyboard('{Home}');
    expect(within(journey).getByRole('status')).toHaveTextContent(`Visar steg 1 av ${n}`);
    await waitFor(() => expect(stateBox(svg, 'auth.loading')).toHaveClass('active'));
    await user.keyboard('{End}');
    expect(within(journey).getByRole('status')).toHaveTextContent(`Visar steg ${n} av ${n}`);

    // Another machine chosen meanwhile: the pinned step does not paint it.
    await user.click(within(journey).getByRole('button', { name: 'Följ live' }));
    expect(within(journey).getByRole('status')).toHaveTextContent('Följer appen live');
    expect(within(timeline).queryByRole('button', { current: 'step' })).toBeNull();
    // Live again: where the app is now (the newest step).
    await waitFor(() => expect(stateBox(svg, leafOf(signIn.steps[n - 1]!.states))).toHaveClass('active'));

    const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`)).toEqual([]);
  }, 30_000);

  it('a transition lists the test paths that take it, each a link that selects its path at that step', async () => {
    const user = userEvent.setup();
    const key = signIn.steps.at(-1)!.transitions[0]!;
    const router = renderFlows(`/flows?machine=auth&transition=${encodeURIComponent(key)}`);
    await diagram();
    const expected = authCoverage.paths.flatMap((p, i) => {
      const step = p.steps.findIndex((s) => s.transitions.includes(key));
      return step >= 0 ? [{ path: i + 1, step: step + 1 }] : [];
    });
    expect(expected.length).toBeGreaterThan(0);
    const heading = screen.getByRole('heading', {
      level: 4,
      name: expected.length === 1 ? 'Testvägen som tar den här övergången' : `De ${expected.length} testvägar som tar den här övergången`,
    });
    // The same, on hover: the transition's tooltip names them.
    const edge = screen.getByRole('group', { name: 'Diagram över Inloggning' }).querySelector(`[data-transition-key="${CSS.escape(key)}"]`)!;
    expect(edge.querySelector('title')!.textContent).toContain(`Testvägar som tar den: ${expected.map((e) => e.path).join(', ')}`);
    const list = heading.nextElementSibling as HTMLElement;
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(expected.map((e) => `Testväg ${e.path}, steg ${e.step}`));

    await user.click(links[0]!);
    const first = expected[0]!;
    expect(new URLSearchParams(router.state.location.search).get('path')).toBe(String(first.path));
    expect(screen.getByRole('combobox', { name: 'Testväg' })).toHaveValue(String(first.path - 1));
    const step = authCoverage.paths[first.path - 1]!.steps[first.step - 1]!;
    expect(screen.getByText(`${first.step}. ${step.text}`)).toBeInTheDocument();
    // The transition stays selected, and is the one the step takes.
    const svg = screen.getByRole('group', { name: 'Diagram över Inloggning' });
    expect(svg.querySelector(`[data-transition-key="${CSS.escape(key)}"]`)).toHaveClass('selected', 'taken');
    expect(within(list).getByRole('link', { current: true })).toHaveTextContent(`Testväg ${first.path}`);
  }, 20_000);

  it('a state lists the test paths that reach it', async () => {
    renderFlows('/flows?machine=auth&state=auth.authenticated');
    await diagram();
    const reaching = authCoverage.paths.filter((p) => p.steps.some((s) => s.states.includes('auth.authenticated'))).length;
    expect(screen.getByRole('heading', { level: 4, name: `De ${reaching} testvägar som når hit` })).toBeInTheDocument();
  }, 20_000);
});
