import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { charts, coverage } from '../../charts/machines.ts';
import { cachedLayouts, type ChartLayout } from '../../../src/pages/flows/layout.ts';
import { chooseDirection, fitView, openView, visibleBox, type Box } from '../../../src/pages/flows/view.ts';
import { diagram, renderFlows, stubResizeObserver } from './render.tsx';
import svFlows from '../../../locales/sv/flows.json';
import { stateLabel, type ChartLabels } from '../../../charts/labels.ts';

const sv = svFlows.charts as ChartLabels;

/**
 * The chart frame of /flows: fit, zoom and pan, export, and links to a state. jsdom lays nothing
 * out, so the frame's size comes from the stubbed ResizeObserver and the geometry is checked
 * through the SVG's viewBox (the part of the chart the frame shows) against the pure view maths.
 */

const auth = charts.find((c) => c.id === 'auth')!;

async function layoutFor(frame: { width: number; height: number }): Promise<ChartLayout> {
  const { RIGHT, DOWN } = await cachedLayouts(auth);
  const both = { RIGHT, DOWN };
  return both[chooseDirection(both, frame)];
}

function viewBoxOf(svg: Element): Box {
  const [x, y, width, height] = svg.getAttribute('viewBox')!.split(' ').map(Number) as [number, number, number, number];
  return { x, y, width, height };
}

const contains = (outer: Box, inner: Box) =>
  outer.x <= inner.x + 0.01 &&
  outer.y <= inner.y + 0.01 &&
  outer.x + outer.width >= inner.x + inner.width - 0.01 &&
  outer.y + outer.height >= inner.y + inner.height - 0.01;

describe('/flows chart frame', () => {
  let frames: ReturnType<typeof stubResizeObserver>;
  beforeEach(() => {
    window.scrollTo = () => {};
    frames = stubResizeObserver({ width: 1000, height: 600 });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('a chart wider than its frame opens readable with an overview; Anpassa shows all of it, and keeps doing so as the window changes', async () => {
    const user = userEvent.setup();
    renderFlows('/flows?machine=auth');
    const svg = await diagram();
    const layout = await layoutFor({ width: 1000, height: 600 });
    const whole = { x: 0, y: 0, width: layout.width, height: layout.height };
    expect(layout.width).toBeGreaterThan(1000);

    // Fitted, its labels would be under 9 px: it opens at 100 % with the overview.
    const start = layout.states.find((s) => s.state.id === auth.states[0]!.initial)!;
    expect(viewBoxOf(svg)).toEqual(visibleBox(openView(layout, { width: 1000, height: 600 }, start), { width: 1000, height: 600 }));
    expect(contains(viewBoxOf(svg), start)).toBe(true);
    expect(contains(viewBoxOf(svg), whole)).toBe(false);
    expect(screen.getByTestId('overview')).toBeInTheDocument();
    expect(screen.getByText('100 %', { selector: 'span' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Anpassa' }));
    expect(contains(viewBoxOf(svg), whole)).toBe(true);
    const fit = fitView(layout, { width: 1000, height: 600 });
    expect(screen.getByText(`${Math.round(fit.scale * 100)} %`, { selector: 'span' })).toBeInTheDocument();
    expect(screen.queryByTestId('overview')).not.toBeInTheDocument();

    // The window narrows to a phone's: still all of it, in the layout that suits the frame.
    frames.resizeFrames({ width: 358, height: 548 });
    const phone = await layoutFor({ width: 358, height: 548 });
    await waitFor(() => expect(contains(viewBoxOf(screen.getByRole('group', { name: /Diagram över/ })), { x: 0, y: 0, width: phone.width, height: phone.height })).toBe(true));
    expect(screen.getByRole('group', { name: /Diagram över/ })).toHaveAttribute('width', '358');
  }, 30_000);

  it('zooms with 100 %, + and −, and pans with the arrow keys when the frame has focus', async () => {
    const user = userEvent.setup();
    renderFlows('/flows?machine=auth');
    const svg = await diagram();
    await user.click(screen.getByRole('button', { name: 'Anpassa' }));
    await user.click(screen.getByRole('button', { name: '100 %' }));
    expect(screen.getByText('100 %', { selector: 'span' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Förstora diagrammet' }));
    expect(screen.getByText('125 %', { selector: 'span' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Förminska diagrammet' }));
    expect(screen.getByText('100 %', { selector: 'span' })).toBeInTheDocument();

    const frame = screen.getByRole('region', { name: /Diagramyta för Inloggning/ });
    frame.focus();
    const before = viewBoxOf(svg);
    await user.keyboard('{ArrowRight}');
    expect(viewBoxOf(svg).x).toBeGreaterThan(before.x);
    await user.keyboard('{ArrowDown}');
    expect(viewBoxOf(svg).y).toBeGreaterThanOrEqual(before.y);
    await user.keyboard('{ArrowLeft}');
    expect(viewBoxOf(svg).x).toBe(before.x);
  }, 30_000);

  it('exports the chart as shown as a standalone SVG naming every state', async () => {
    const user = userEvent.setup();
    const files: { blob: Blob; name: string }[] = [];
    let lastBlob: Blob | undefined;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => ((lastBlob = b), 'blob:chart'), revokeObjectURL: () => {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      files.push({ blob: lastBlob!, name: this.download });
    });
    renderFlows('/flows?machine=auth&path=1');
    await diagram();
    await user.click(screen.getByRole('button', { name: 'Ladda ner SVG' }));
    await waitFor(() => expect(files).toHaveLength(1));
    expect(files[0]!.name).toBe('greetie-auth.svg');
    const text = await files[0]!.blob.text();
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.querySelector('parsererror')).toBeNull();
    const root = doc.documentElement;
    const layout = await layoutFor({ width: 1000, height: 600 });
    // The whole chart, not the part in view.
    expect(root.getAttribute('viewBox')).toBe(`0 0 ${layout.width} ${layout.height}`);
    expect(root.getAttribute('width')).toBe(String(Math.ceil(layout.width)));
    for (const s of auth.states) {
      if (s.id === auth.root || s.type === 'history') continue;
      // The label for the product owner, the code name (in the state's title) for developers.
      expect(root.querySelector(`[data-state-id="${s.id}"] text`)?.textContent, s.id).toContain(stateLabel(sv, auth, s));
      expect(root.querySelector(`[data-state-id="${s.id}"] title`)?.textContent, s.id).toContain(`(${s.id})`);
    }
    // Styles inline (no class means anything outside the page), the path's first step marked.
    expect(root.querySelector('[class]')).toBeNull();
    const first = coverage.machines.find((m) => m.id === 'auth')!.paths[0]!.steps[0]!;
    const leaf = first.states[first.states.length - 1]!;
    expect(root.querySelector(`[data-state-id="${leaf}"] > rect`)?.getAttribute('style')).toMatch(/stroke-width:\s*3/);
  }, 30_000);

  it('exports a PNG drawn on a canvas of the chart’s size', async () => {
    const user = userEvent.setup();
    const drawn: { width: number; height: number; args: unknown[] }[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:chart', revokeObjectURL: () => {} }));
    // jsdom draws nothing: an image that loads at once, a canvas that records what is drawn.
    vi.stubGlobal(
      'Image',
      class {
        onload: (() => void) | null = null;
        set src(_v: string) {
          queueMicrotask(() => this.onload?.());
        }
      },
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (this: HTMLCanvasElement) {
      const { width, height } = this;
      return {
        fillRect: () => {},
        drawImage: (...args: unknown[]) => drawn.push({ width, height, args }),
      } as unknown as CanvasRenderingContext2D;
    } as never);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((cb) => cb(new Blob(['png'], { type: 'image/png' })));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderFlows('/flows?machine=auth');
    await diagram();
    await user.click(screen.getByRole('button', { name: 'Ladda ner PNG' }));
    await waitFor(() => expect(names).toEqual(['greetie-auth.png']));
    const layout = await layoutFor({ width: 1000, height: 600 });
    expect(drawn).toHaveLength(1);
    expect(drawn[0]).toMatchObject({ width: Math.ceil(layout.width), height: Math.ceil(layout.height) });
    expect(drawn[0]!.args.slice(1)).toEqual([0, 0, Math.ceil(layout.width), Math.ceil(layout.height)]);
  }, 30_000);

  it('a link to a state opens the machine with that state selected and in view', async () => {
    const id = 'auth.unauthenticated.loggingIn';
    renderFlows(`/flows?machine=auth&state=${encodeURIComponent(id)}`);
    const svg = await diagram();
    const state = within(svg).getByRole('button', { name: /^Tillstånd Loggar in/ });
    expect(state).toHaveClass('selected');
    expect(screen.getByRole('heading', { level: 3, name: 'Tillstånd Loggar in' })).toBeInTheDocument();
    const layout = await layoutFor({ width: 1000, height: 600 });
    const box = layout.states.find((s) => s.state.id === id)!;
    await waitFor(() => expect(contains(viewBoxOf(svg), box)).toBe(true));
  }, 30_000);

  it('links to a transition and to a path step; selecting updates the address, which Kopiera länk copies', async () => {
    const user = userEvent.setup();
    const tr = auth.transitions.find((x) => x.source !== auth.root && x.label.startsWith('user.submitCode'))!;
    const router = renderFlows(`/flows?machine=auth&transition=${encodeURIComponent(tr.key)}`);
    const svg = await diagram();
    expect(screen.getByRole('heading', { level: 3, name: new RegExp(`Övergång ${tr.label.replace(/[[\]().]/g, '\\$&')}`) })).toBeInTheDocument();

    await user.click(within(svg).getByRole('button', { name: /^Tillstånd Loggar in/ }));
    const params = new URLSearchParams(router.state.location.search);
    expect(Object.fromEntries(params)).toEqual({ machine: 'auth', state: 'auth.unauthenticated.loggingIn' });
    expect(router.state.historyAction).toBe('REPLACE');

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Kopiera länk' }));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/flows?machine=auth&state=auth.unauthenticated.loggingIn`);
    expect(await screen.findByText('Länken är kopierad.')).toBeInTheDocument();

    const paths = coverage.machines.find((m) => m.id === 'auth')!.paths;
    const index = paths.findIndex((p) => p.steps.length >= 3);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Testväg' }), String(index));
    await user.click(screen.getByRole('button', { name: 'Nästa steg' }));
    expect(new URLSearchParams(router.state.location.search).get('path')).toBe(String(index + 1));
    expect(new URLSearchParams(router.state.location.search).get('step')).toBe('2');
  }, 30_000);

  it('a link to a path step opens on that step', async () => {
    const paths = coverage.machines.find((m) => m.id === 'auth')!.paths;
    const index = paths.findIndex((p) => p.steps.length >= 3);
    renderFlows(`/flows?machine=auth&path=${index + 1}&step=3`);
    await diagram();
    expect(screen.getByText(`Steg 3 av ${paths[index]!.steps.length}`)).toBeInTheDocument();
    expect(screen.getByText(`3. ${paths[index]!.steps[2]!.text}`)).toBeInTheDocument();
  }, 30_000);
});
