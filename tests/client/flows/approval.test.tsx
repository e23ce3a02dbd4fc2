import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../../charts/diff.ts';
import { diagram, renderFlows, stubResizeObserver } from './render.tsx';

/**
 * What changed since approval, on /flows: each machine in the list says whether it is approved as
 * it is, changed since (with a count) or not approved; "Visa ändringar" marks the chart and lists
 * the changes. The approvals are the committed ones but for auth, approved here when its
 * `restoring` step was still called `askingBrowser`.
 */
const approvals = vi.hoisted(() => ({ list: [] as Approval[] }));
vi.mock('../../../src/pages/flows/approved.ts', () => approvals.list.length ? { approvals: approvals.list } : { approvals: [] });

const dir = join(process.cwd(), 'docs/flows/approved');
const read = (id: string) => readFileSync(join(dir, `${id}.json`), 'utf8');

describe('/flows: changes since approval', () => {
  beforeEach(() => {
    window.scrollTo = () => {};
    stubResizeObserver({ width: 1000, height: 600 });
    approvals.list = [
      JSON.parse(read('auth').replaceAll('"auth.restoring"', '"auth.askingBrowser"')) as Approval,
      JSON.parse(read('redeem')) as Approval,
    ];
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('marks each machine approved, changed with a count, or not approved; shows and lists the changes on request', async () => {
    const user = userEvent.setup();
    renderFlows('/flows?machine=auth');
    await diagram();
    const nav = screen.getByRole('navigation', { name: 'Maskiner' });
    const link = (name: RegExp) => within(nav).getByRole('link', { name });
    await waitFor(() => expect(link(/^Inloggning/).textContent).toMatch(/Ändrad sedan godkännandet: \d+ ändringar/));
    const count = Number(/(\d+) ändringar/.exec(link(/^Inloggning/).textContent!)![1]);
    // restoring is new, askingBrowser gone with its 3 ways out; restoring's 3 are new; loading's way there changed target.
    expect(count).toBe(1 + 1 + 3 + 3 + 1);
    expect(link(/^Lös in i kassan/).textContent).toContain('✓ Godkänd');
    expect(link(/^Betalning/).textContent).toContain('Inte godkänd än');

    const show = screen.getByRole('button', { name: `Δ Visa ändringar (${count})` });
    expect(show.getAttribute('aria-pressed')).toBe('false');
    await user.click(show);
    expect(show.getAttribute('aria-pressed')).toBe('true');
    const changes = screen.getByRole('region', { name: `${count} ändringar sedan godkännandet ${approvals.list[0]!.approvedAt}` });
    expect(within(changes).getByRole('list', { name: 'Förklaring till ändringarna' }).textContent).toMatch(/\+ tillagt.*Δ ändrat.*− borttaget/);
    expect(within(changes).getByRole('heading', { name: /Borttagna tillstånd \(1\)/ })).toBeTruthy();
    // The removed state and, as the source of its 3 removed ways out, by its code name.
    expect(within(changes).getAllByText('auth.askingBrowser')).toHaveLength(4);
    expect(within(changes).getByRole('heading', { name: /Ändrade övergångar \(1\)/ })).toBeTruthy();
    expect(within(changes).getByText(/nytt mål/)).toBeTruthy();

    // On the chart: the new state marked (class, sign and words), the changed way there, the removed parts counted where they were.
    const svg = await diagram();
    const restoring = svg.querySelector('[data-state-id="auth.restoring"]')!;
    expect(restoring.getAttribute('class')).toContain('diff-added');
    expect(restoring.getAttribute('aria-label')).toContain('(tillagt sedan godkännandet)');
    expect(svg.querySelector('.diff-badge[data-for="auth.restoring"]')?.textContent).toBe('+');
    const changed = [...svg.querySelectorAll('g.edge.diff-changed')];
    expect(changed.map((e) => e.getAttribute('data-transition-key'))).toEqual([expect.stringMatching(/^auth\.loading · xstate\.done\.actor\.restoreSession → auth\.restoring/)]);
    // The removed state and its ways out were on the machine itself, which is not drawn as a box: said in words.
    expect(within(changes).getByText(/4 borttagna delar hörde till maskinen/)).toBeTruthy();

    // A part in the list selects it on the chart.
    await user.click(within(changes).getByRole('button', { name: 'Återställer inloggning' })!);
    await waitFor(() => expect(restoring.getAttribute('aria-pressed')).toBe('true'));
  }, 30_000); // renders the whole page and its chart twice: 6 s alone, more beside other files on a busy machine

  it('brings the first change into view when the changes are turned on, and a change chosen in the list (keyboard too)', async () => {
    const user = userEvent.setup();
    renderFlows('/flows?machine=auth');
    const svg = await diagram();
    const frame = screen.getByRole('region', { name: /Inloggning/ });
    const restoring = svg.querySelector('[data-state-id="auth.restoring"]')!;
    const box = restoring.querySelector('rect.box')!;
    const inView = () => {
      const [x, y, w, h] = svg.getAttribute('viewBox')!.split(' ').map(Number) as [number, number, number, number];
      const bx = Number(box.getAttribute('x'));
      const by = Number(box.getAttribute('y'));
      return bx >= x && by >= y && bx + Number(box.getAttribute('width')) <= x + w && by + Number(box.getAttribute('height')) <= y + h;
    };
    // Zoomed in and panned far away from the new state (top right): to the chart's left end.
    frame.focus();
    for (let i = 0; i < 4; i++) await user.keyboard('+');
    for (let i = 0; i < 30; i++) await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    await waitFor(() => expect(inView()).toBe(false));

    // Turned on: the first change (the added state) is shown.
    const show = await screen.findByRole('button', { name: /Visa ändringar/ }, { timeout: 10_000 });
    await user.click(show);
    await waitFor(() => expect(inView()).toBe(true));

    // Away again, then chosen in the list by keyboard: in view, selected.
    frame.focus();
    for (let i = 0; i < 30; i++) await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    await waitFor(() => expect(inView()).toBe(false));
    const changes = screen.getByRole('region', { name: /ändringar sedan godkännandet/ });
    within(changes).getByRole('button', { name: 'Återställer inloggning' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(inView()).toBe(true));
    expect(restoring.getAttribute('aria-pressed')).toBe('true');
    expect(restoring.getAttribute('class')).toContain('selected');
  }, 60_000);
});
