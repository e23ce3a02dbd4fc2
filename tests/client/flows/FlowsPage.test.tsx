import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLOWS_CHANNEL, type FlowsMessage } from '../../../src/inspect.ts';
import { charts, coverage } from '../../charts/machines.ts';
import { diagram, renderFlows, stubResizeObserver } from './render.tsx';
import svFlows from '../../../locales/sv/flows.json';
import { chartTitle, stateLabel, type ChartLabels } from '../../../charts/labels.ts';

const sv = svFlows.charts as ChartLabels;

describe('/flows', () => {
  beforeEach(() => {
    window.scrollTo = () => {};
    stubResizeObserver();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('shows a 404 page when the sandbox is off', async () => {
    renderFlows('/flows', 404);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sidan finns inte' })).toBeInTheDocument();
  });

  it("takes the sandbox's answer from the HTML (decision 149): drawn without GET /api/sandbox, once; the next visit asks", async () => {
    const meta = document.createElement('meta');
    meta.name = 'greetie-sandbox';
    meta.content = 'on';
    document.head.append(meta);
    const first = renderFlows('/flows?machine=auth');
    await diagram();
    const asked = () => vi.mocked(fetch).mock.calls.filter(([url]) => String(url).endsWith('/api/sandbox')).length;
    expect(asked()).toBe(0);
    expect(document.querySelector('meta[name="greetie-sandbox"]')).toBeNull();
    // Away and back: the page asks the server again.
    await act(() => first.navigate('/elsewhere'));
    await act(() => first.navigate('/flows?machine=auth'));
    await diagram();
    expect(asked()).toBe(1);
  });

  it("takes over from the chart the server drew into the HTML (decision 154): the layer goes once the page's own is drawn, one chart left", async () => {
    const layer = document.createElement('div');
    layer.id = 'boot-page';
    layer.setAttribute('aria-hidden', 'true');
    layer.innerHTML = '<svg role="group" aria-label="Diagram över Betalning"><g class="state" data-state-id="payment.opening"></g></svg>';
    document.body.append(layer);
    try {
      renderFlows('/flows?machine=payment');
      await screen.findByRole('group', { name: /Diagram över/ }, { timeout: 10_000 });
      expect(document.querySelector('[data-boot-page]')).not.toBeNull();
      await waitFor(() => expect(document.getElementById('boot-page')).toBeNull());
      expect(document.querySelectorAll('svg[role="group"]')).toHaveLength(1);
    } finally {
      layer.remove();
    }
  });

  it('lists every machine in machines/ with its coverage from the path report', async () => {
    renderFlows();
    const nav = await screen.findByRole('navigation', { name: 'Maskiner' });
    const links = within(nav).getAllByRole('link');
    expect(links).toHaveLength(charts.length);
    for (const c of charts) {
      const cov = coverage.machines.find((m) => m.id === c.id);
      // Anchored: one title may be inside another; the title is the Swedish one.
      const link = within(nav).getByRole('link', { name: new RegExp(`^${chartTitle(sv, c).replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}`, 'u') });
      if (cov) expect(link).toHaveTextContent(`${cov.transitions.covered}/${cov.transitions.total}`);
    }
  });

  it('draws the machine with its states and labelled transitions; a state describes itself on Enter', async () => {
    renderFlows('/flows?machine=auth');
    const svg = await diagram();
    const loggingIn = within(svg).getByRole('button', { name: /^Tillstånd Loggar in: Koden kontrolleras/ });
    expect(within(svg).getByRole('button', { name: /^Övergång user\.submitCode \[isSixDigitCode\]/ })).toBeInTheDocument();
    loggingIn.focus();
    await userEvent.keyboard('{Enter}');
    const panel = screen.getByRole('region', { name: 'Valt tillstånd' });
    expect(within(panel).getByRole('heading', { level: 3, name: 'Tillstånd Loggar in' })).toBeInTheDocument();
    expect(within(panel).getByText('auth.unauthenticated.loggingIn')).toBeInTheDocument();
  }, 20_000);

  it('selects a state by keyboard: pressed on the chart, its panel announced with the ways in and out, test paths and picture slot', async () => {
    const user = userEvent.setup();
    renderFlows('/flows?machine=auth');
    const svg = await diagram();
    const enteringCode = within(svg).getByRole('button', { name: /^Tillstånd Skriver kod:/ });
    expect(enteringCode).toHaveAttribute('aria-pressed', 'false');
    enteringCode.focus();
    await user.keyboard('{Enter}');
    expect(enteringCode).toHaveAttribute('aria-pressed', 'true');
    const panel = screen.getByRole('region', { name: 'Valt tillstånd' });
    expect(panel).toHaveAttribute('aria-live', 'polite');
    expect(within(panel).getByRole('heading', { level: 3, name: 'Tillstånd Skriver kod' })).toBeInTheDocument();
    expect(within(panel).getByText(/Personen skriver den sexsiffriga koden/)).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { level: 4, name: 'Vägar in' })).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { level: 4, name: 'Vägar ut' })).toBeInTheDocument();
    expect(within(panel).getAllByRole('link', { name: /^Testväg \d+, steg \d+$/ }).length).toBeGreaterThan(0);
    // The page in that state at phone size (npm run flows:shots), named in the app's language, loaded lazily.
    const picture = within(panel).getByRole('img', { name: 'Sidan i läget ”Skriver kod” (Inloggning), i mobilstorlek' });
    expect(picture).toHaveAttribute('loading', 'lazy');
    expect(picture.getAttribute('src')).toMatch(/\.webp$/);
    expect(within(panel).getByText('Sidan /auth/jwt/login i en mobil')).toBeInTheDocument();
    // A way out names its target by label; choosing it selects that state.
    await user.click(within(panel).getAllByRole('button', { name: 'Loggar in' })[0]!);
    expect(within(svg).getByRole('button', { name: /^Tillstånd Loggar in:/ })).toHaveAttribute('aria-pressed', 'true');
    expect(enteringCode).toHaveAttribute('aria-pressed', 'false');
    // A background state says that no page shows it.
    within(svg).getByRole('button', { name: /^Tillstånd Tidigare läge/ }).focus();
    await user.keyboard(' ');
    expect(within(screen.getByRole('region', { name: 'Valt tillstånd' })).getByText('Visas inte på någon sida')).toBeInTheDocument();
  }, 20_000);

  it('has no accessibility violations axe can find (jsdom: no colour contrast)', async () => {
    renderFlows('/flows?machine=auth');
    await diagram();
    const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`)).toEqual([]);
  }, 20_000);

  it('steps through a generated path on the chart', async () => {
    const user = userEvent.setup();
    renderFlows('/flows?machine=auth');
    const svg = await diagram();
    const auth = coverage.machines.find((m) => m.id === 'auth')!;
    const index = auth.paths.findIndex((p) => p.steps.length >= 3);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Testväg' }), String(index));
    expect(screen.getByText(`Steg 1 av ${auth.paths[index]!.steps.length}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nästa steg' }));
    const step = auth.paths[index]!.steps[1]!;
    expect(screen.getByText(`2. ${step.text}`)).toBeInTheDocument();
    const leafId = step.states[step.states.length - 1]!;
    const chart = charts.find((c) => c.id === 'auth')!;
    const leaf = stateLabel(sv, chart, chart.states.find((s) => s.id === leafId)!);
    expect(within(svg).getByRole('button', { name: new RegExp(`^Tillstånd ${leaf}`) })).toHaveClass('step');
  }, 20_000);

  it('highlights what a running app in another tab reports over the channel', async () => {
    renderFlows('/flows?machine=toasts');
    const svg = await diagram();
    const app = new BroadcastChannel(FLOWS_CHANNEL);
    // The viewer said hello when it opened; the app answers with what runs.
    await act(async () => {
      app.postMessage({
        type: 'actor.snapshot',
        tabId: 'another-tab',
        page: '/merchant',
        actorId: 'x1',
        machineId: 'toasts',
        systemId: 'toasts',
        states: ['toasts', 'toasts.active'],
        status: 'active',
        event: 'toast.show',
        transitions: [{ source: 'toasts.active', eventType: 'toast.show', targets: [], index: 2 }],
        at: Date.now(),
      } satisfies FlowsMessage);
    });
    await waitFor(() => expect(within(svg).getByRole('button', { name: /^Tillstånd Tar emot/ })).toHaveClass('active'));
    expect(within(svg).getByRole('button', { name: /^Övergång toast\.show, Tar emot → stannar kvar: Någon bad om att visa ett meddelande/ })).toHaveClass('taken');
    expect(screen.getByText(/senast: toast\.show/)).toHaveTextContent('/merchant');
    app.close();
  }, 20_000);
});
