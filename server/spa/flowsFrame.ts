import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fromChartData, pathsByTransition, type Chart, type ChartData, type ChartState, type ChartTransition, type MachineCoverage } from '../../charts/chart.ts';
import { chartTitle, stateLabel, type ChartLabels } from '../../charts/labels.ts';
import type { Direction, StoredLayout, StoredLayouts } from '../../charts/layout.ts';
import { fitsChart } from '../../charts/layoutFit.ts';
import { chooseDirection, fitScale, READABLE_SCALE } from '../../src/pages/flows/view.ts';
import { escapeHtml, publicHeader } from './firstScreens.ts';

/**
 * /flows?machine=…'s chart as static markup in the page's HTML (decision 154), painted before any
 * script has run, like the first screens of decision 094: `#boot-page`, an inert, aria-hidden layer
 * over #root with the visitor's header, the page's title, the machine's title row, the chart's
 * toolbar and its frame, laid out by the CSS below as the page lays out its own (the same elements,
 * the values of src/pages/flows/flows.css.ts and ui.css.ts, each rule naming its source). The page
 * takes it away once its own chart is painted (src/pages/flows/FlowsPage.tsx, useBootPageHandOver).
 *
 * The chart is `Diagram.tsx`'s first render (no selection, nothing live, the coverage overlay on):
 * the same elements, classes, roles, names and positions, checked against the component by
 * tests/client/flows/frame-markup.test.tsx. Only the `<svg>` element itself differs: the page sizes
 * it to the frame and moves the chart with its `viewBox` (the frame's view, view.ts); here each
 * direction's layout is drawn whole (`viewBox` the chart) and placed in the frame by CSS container
 * queries, which choose the layout and the view exactly as `chooseDirection` and `openView` do for
 * the frame's size (the server does not know the window's): fitted, or at 100 % around where the
 * flow starts.
 */

type Strings = Record<string, unknown>;

/** The strings the chart's first frame uses, in one language: locales/<lang>/flows.json. */
export interface FrameTexts {
  strings: Strings;
  labels: ChartLabels | undefined;
}

export type FrameLanguage = 'sv' | 'en';

/** i18next's `{{name}}` interpolation (the app does not escape: React does, and so does `escapeHtml` here). */
function tr(strings: Strings, key: string, values: Record<string, string> = {}): string {
  const text = strings[key];
  if (typeof text !== 'string') throw new Error(`locales: no flows string at ${key}`);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

const attr = (value: string | number) => escapeHtml(String(value));


/**
 * The chart's SVG as Diagram.tsx draws it on the page's first render, for one layout: what is
 * inside `<svg>` is the component's; the element itself carries `rootAttributes`.
 */
export function chartSvg(chart: Chart, layout: StoredLayout, cov: MachineCoverage | undefined, texts: FrameTexts, rootAttributes: string): string {
  const { strings, labels } = texts;
  const t = (key: string, values?: Record<string, string>) => tr(strings, key, values);
  const byId = new Map(chart.states.map((s) => [s.id, s]));
  const nameOf = (s: Pick<ChartState, 'id' | 'key'>) => stateLabel(labels, chart, s);
  const targetName = (id: string) => {
    const s = byId.get(id);
    return s ? nameOf(s) : id;
  };
  const title = chartTitle(labels, chart);
  const byKey = new Map(chart.transitions.map((x) => [x.key, x]));
  const uncoveredStates = new Set(cov?.states.uncovered ?? []);
  const uncoveredTransitions = new Set(cov?.transitions.uncovered ?? []);
  const paths = cov ? pathsByTransition(cov.paths) : undefined;
  const stateName = (s: ChartState) => `${t('state')} ${nameOf(s)}${s.type === 'final' ? ` (${t('final')})` : ''}: ${s.description ?? t('noDescription')}`;
  const transitionName = (x: ChartTransition, shown: string) =>
    `${t('transition')} ${shown}, ${targetName(x.source)} → ${x.targets.map(targetName).join(', ') || t('stays')}: ${x.description ?? t('noDescription')}`;

  const states = layout.states
    .flatMap(({ id, ...box }) => {
      const state = byId.get(id);
      return state ? [{ ...box, state }] : [];
    });
  const out: string[] = [
    `<svg ${rootAttributes} data-chart-width="${attr(layout.width)}" data-chart-height="${attr(layout.height)}" role="group" aria-label="${attr(t('diagramLabel', { title }))}">`,
    '<defs><marker id="flows-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"></path></marker></defs>',
  ];
  for (const s of [...states].sort((a, b) => a.depth - b.depth)) {
    const st = s.state;
    const uncovered = cov !== undefined && uncoveredStates.has(st.id);
    // The same list as Diagram's, empty entries and all, so the class attribute reads the same.
    const cls = ['state', s.compound ? 'compound' : '', st.type, uncovered ? 'uncovered' : '', '', '', '', ''].join(' ');
    const head =
      `<g data-state-id="${attr(st.id)}" class="${attr(cls)}" tabindex="0" role="button" aria-pressed="false" aria-label="${attr(stateName(st))}">` +
      `<title>${escapeHtml(`${nameOf(st)} (${st.id})${st.description ? `: ${st.description}` : ''}`)}</title>`;
    if (st.type === 'history') {
      out.push(
        `${head}<rect class="box" x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}" rx="${s.width / 2}"></rect>` +
          `<text x="${s.x + s.width / 2}" y="${s.y + s.height / 2 + 4}" text-anchor="middle">H</text></g>`,
      );
      continue;
    }
    out.push(
      `${head}<rect class="box" x="${s.x}" y="${s.y}" width="${s.width}" height="${s.height}" rx="10"></rect>` +
        (st.type === 'final' ? `<rect class="inner" x="${s.x + 4}" y="${s.y + 4}" width="${s.width - 8}" height="${s.height - 8}" rx="7"></rect>` : '') +
        `<text x="${s.compound ? s.x + 12 : s.x + s.width / 2}" y="${s.compound ? s.y + 22 : s.y + s.height / 2 + 4}" text-anchor="${s.compound ? 'start' : 'middle'}">` +
        `${escapeHtml(nameOf(st))}${uncovered ? ' ⚠' : ''}</text></g>`,
    );
  }
  for (const s of states) {
    if (!s.state.parent || chart.states.find((p) => p.id === s.state.parent)?.initial !== s.state.id) continue;
    const y = s.y + Math.min(20, s.height / 2);
    out.push(
      `<g class="initial" aria-hidden="true"><circle cx="${s.x - 14}" cy="${y}" r="4"></circle>` +
        `<path d="M${s.x - 10},${y} L${s.x - 1},${y}" marker-end="url(#flows-arrow)"></path></g>`,
    );
  }
  for (const e of layout.edges) {
    const x = byKey.get(e.key);
    if (!x) continue;
    const uncovered = uncoveredTransitions.has(e.key);
    const cls = ['edge', cov ? (uncovered ? 'uncovered' : 'covered') : '', '', '', ''].join(' ');
    const taking = paths?.get(e.key);
    const d = e.points.map((p, j) => `${j ? 'L' : 'M'}${p.x},${p.y}`).join(' ');
    out.push(
      `<g data-transition-key="${attr(e.key)}" class="${attr(cls)}" tabindex="0" role="button" aria-pressed="false" aria-label="${attr(transitionName(x, e.label.text))}">` +
        `<title>${escapeHtml(`${x.description ?? x.label}${taking?.length ? `\n${t('coveredByPaths', { paths: taking.join(', ') })}` : ''}`)}</title>` +
        `<path d="${attr(d)}" marker-end="url(#flows-arrow)"></path>` +
        `<rect class="label" x="${e.label.x}" y="${e.label.y}" width="${e.label.width}" height="${e.label.height}" rx="4"></rect>` +
        `<text x="${e.label.x + 5}" y="${e.label.y + 13}">${cov && uncovered ? '⚠ ' : ''}${escapeHtml(e.label.text)}</text></g>`,
    );
  }
  out.push('</svg>');
  return out.join('');
}

/** Space kept free around a fitted chart (view.ts's MARGIN): the container the queries read is the frame less this on each side. */
const MARGIN = 8;

interface Placement {
  direction: Direction;
  mode: 'fit' | 'actual';
  /** At 100 %: per axis, whether the chart is no larger than the frame (then centred) or larger (then around the start). */
  fitsX: boolean;
  fitsY: boolean;
}

/** How the page opens the chart in a frame of this inner size (the frame less the margins): view.ts's own choice. */
function placementAt(layouts: Record<Direction, StoredLayout>, inner: { width: number; height: number }): Placement {
  const frame = { width: inner.width + 2 * MARGIN, height: inner.height + 2 * MARGIN };
  const direction = chooseDirection({ RIGHT: layouts.RIGHT, DOWN: layouts.DOWN }, frame);
  const l = layouts[direction];
  const fit = fitScale(l, frame) >= READABLE_SCALE;
  return { direction, mode: fit ? 'fit' : 'actual', fitsX: l.width <= frame.width, fitsY: l.height <= frame.height };
}

const px = (n: number) => `${Math.round(n * 1000) / 1000}px`;

/**
 * The CSS that places each direction's SVG in the frame as the page would open it: the frame's
 * inner size split into cells by every size at which view.ts's choice can change (a layout's
 * width or height, at 100 % and at the readable scale, and the ratios that compare the two
 * layouts' fitted scales), and in each cell the choice made at one point of it.
 */
export function placementCss(chart: Chart, layouts: Record<Direction, StoredLayout>, ids: Record<Direction, string>): string {
  const dirs: Direction[] = ['RIGHT', 'DOWN'];
  const xs = new Set<number>();
  const ys = new Set<number>();
  const ratios = new Set<number>([1]);
  for (const d of dirs) {
    const { width: w, height: h } = layouts[d];
    for (const k of [1, READABLE_SCALE]) {
      xs.add(w * k);
      ys.add(h * k);
    }
    xs.add(w - 2 * MARGIN);
    ys.add(h - 2 * MARGIN);
    for (const o of dirs) ratios.add(w / layouts[o].height);
  }
  const cuts = (set: Set<number>) => [0, ...[...set].filter((v) => v > 0).sort((a, b) => a - b), Infinity];
  const cx = cuts(xs);
  const cy = cuts(ys);
  const cr = cuts(ratios);
  const initial = chart.states.find((s) => s.id === chart.root)?.initial;
  const startOf = (d: Direction) => layouts[d].states.find((s) => s.id === initial);

  // What each placement sets on its SVG, relative to the inner box (100cqw × 100cqh); each long
  // value written once, as a custom property of the SVG, and named by the placements that use it.
  const vars = new Map<string, string>();
  const v = (value: string) => {
    let name = vars.get(value);
    if (!name) vars.set(value, (name = `--p${vars.size}`));
    return `var(${name})`;
  };
  const rule = (p: Placement): string => {
    const l = layouts[p.direction];
    const id = ids[p.direction];
    if (p.mode === 'fit') {
      const w = `min(${px(l.width)},100cqw,100cqh*${l.width / l.height})`;
      const h = `min(${px(l.height)},100cqh,100cqw*${l.height / l.width})`;
      return `#${id}{display:block;width:${v(w)};height:${v(h)};left:${v(`calc((100cqw - ${w})/2)`)};top:${v(`calc((100cqh - ${h})/2)`)}}`;
    }
    // At 100 %: centred on an axis where the chart is smaller than the frame; else the start's
    // centre in the middle of the frame, no empty space beyond the chart's edge (clampView, centreOn).
    const start = startOf(p.direction);
    const axis = (fits: boolean, size: number, frame: string, centre: number | undefined) =>
      fits
        ? `calc((${frame} - ${px(size)})/2 - ${MARGIN}px)`
        : centre === undefined
          ? `-${MARGIN}px`
          : `calc(max(${frame} - ${px(size)}, min(0px, ${frame}/2 - ${px(centre)})) - ${MARGIN}px)`;
    const fw = `(100cqw + ${2 * MARGIN}px)`;
    const fh = `(100cqh + ${2 * MARGIN}px)`;
    return (
      `#${id}{display:block;width:${px(l.width)};height:${px(l.height)};` +
      `left:${v(axis(p.fitsX, l.width, fw, start && start.x + start.width / 2))};top:${v(axis(p.fitsY, l.height, fh, start && start.y + start.height / 2))}}`
    );
  };

  const queries: { css: string; q: string }[] = [];
  const mid = (a: number, b: number) => (b === Infinity ? a + 400 : (a + b) / 2);
  for (let i = 0; i < cx.length - 1; i++) {
    for (let j = 0; j < cy.length - 1; j++) {
      // Along the ratio, neighbouring cells with the same placement are written as one.
      let run: { css: string; r0: number; r1: number } | undefined;
      const flush = () => {
        if (!run) return;
        const [x0, x1, y0, y1] = [cx[i]!, cx[i + 1]!, cy[j]!, cy[j + 1]!];
        const q = [
          x0 > 0 ? `(width>=${px(x0)})` : '',
          x1 < Infinity ? `(width<${px(x1)})` : '',
          y0 > 0 ? `(height>=${px(y0)})` : '',
          y1 < Infinity ? `(height<${px(y1)})` : '',
          run.r0 > 0 ? `(aspect-ratio>=${ratio(run.r0)})` : '',
          run.r1 < Infinity ? `(aspect-ratio<${ratio(run.r1)})` : '',
        ]
          .filter(Boolean)
          .join(' and ');
        queries.push({ css: run.css, q });
        run = undefined;
      };
      for (let k = 0; k < cr.length - 1; k++) {
        // A point of the cell: its rectangle's, with a ratio in the ratio's interval (if any).
        const [x0, x1, y0, y1, r0, r1] = [cx[i]!, cx[i + 1]!, cy[j]!, cy[j + 1]!, cr[k]!, cr[k + 1]!];
        const y = mid(y0, y1);
        const r = r1 === Infinity ? r0 * 2 : (r0 + r1) / 2;
        let point: { width: number; height: number } | undefined;
        for (const yy of [y, y0 + 0.01, y1 === Infinity ? y0 + 4000 : y1 - 0.01, mid(y0, y)]) {
          const xx = yy * r;
          if (xx > x0 && xx < x1) point = { width: xx, height: yy };
          if (point) break;
        }
        if (!point) {
          const xx = mid(x0, x1);
          const yy = xx / r;
          if (yy > y0 && yy < y1) point = { width: xx, height: yy };
        }
        if (!point) continue;
        const css = rule(placementAt(layouts, point));
        if (run && run.css === css) run.r1 = r1;
        else {
          flush();
          run = { css, r0, r1 };
        }
      }
      flush();
    }
  }
  // Without container queries: the left-to-right layout, fitted.
  const fallback = rule({ direction: 'RIGHT', mode: 'fit', fitsX: true, fitsY: true });
  const defined = `.ff-svg{${[...vars].map(([value, name]) => `${name}:${value}`).join(';')}}`;
  return defined + `@supports not (container-type:size){${fallback}}` + queries.map(({ css, q }) => `@container flows-frame ${q}{${css}}`).join('');
}

/** A ratio as CSS writes it (a fraction of integers near enough). */
function ratio(r: number): string {
  return `${Math.round(r * 10000)}/10000`;
}

/**
 * The layer's own CSS (besides firstScreens.ts's header and `.boot-page`): the values of
 * src/pages/flows/flows.css.ts (named beside each rule), ui.css.ts's container, styles/theme.css.ts.
 */
export const FLOWS_FRAME_RULES = [
  // page, pageTitle (and container: .bp-container).
  '.ff-page{padding-top:24px;padding-bottom:24px}',
  '.ff-title{margin:0 0 8px}',
  // layout, mainArea: the machine list's column beside the chart from 900 px.
  '.ff-layout{display:grid;gap:24px}',
  '.ff-main{min-width:0}',
  '@media screen and (min-width:900px){.ff-layout{grid-template-columns:240px minmax(0,1fr);grid-template-areas:"nav main" "journey main";grid-template-rows:auto 1fr}.ff-main{grid-area:main}}',
  // machineHead, machineTitle, badge.
  '.ff-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:16px;margin-bottom:4px}',
  '.ff-machine{margin:0;font-size:1.375rem}',
  '.ff-badge{font-size:.85em;color:#5C5566;white-space:nowrap}',
  // chartBox, chartToolbar, buttonGroup, smallButton, iconButton, zoomValue.
  // The groups do not wrap inside: with Quicksand a phone's row holds each group whole, and in the
  // fallback font (Quicksand Boot is optional: a late font is not waited for) the rows stay the same.
  '.ff-box{display:flex;flex-direction:column;background:#FFFFFF;overflow:hidden}',
  '.ff-toolbar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin-bottom:8px}',
  '.ff-group{display:flex;flex-wrap:nowrap;align-items:center;gap:8px;white-space:nowrap}',
  '.ff-button{min-height:44px;padding:0 16px;border-radius:8px;border:2px solid #ED5AA4;background:#FFFFFF;color:#A51F66;font-weight:600}',
  '.ff-icon{min-width:44px;padding-inline:0}',
  '.ff-zoom{min-width:3.5em;text-align:center;font-variant-numeric:tabular-nums}',
  // frameWrap, frame; the inner box (the frame less view.ts's margin) is what the placements query.
  '.ff-wrap{position:relative}',
  '.ff-frame{position:relative;height:clamp(400px,62vh,760px);overflow:hidden;border:1px solid #E4DDE8;border-radius:16px;background:#FFFFFF}',
  `.ff-inner{position:absolute;inset:${MARGIN}px;container:flows-frame/size}`,
  // svg and its parts (Diagram's classes, as the page's first render has them).
  '.ff-svg{position:absolute;display:none;max-width:none;user-select:none}',
  '.ff-svg .state rect.box{fill:#FFFFFF;stroke:#5C5566;stroke-width:1.5}',
  '.ff-svg .state.compound>rect.box{fill:#FAF7FB}',
  '.ff-svg .state.final rect.inner{fill:none;stroke:#5C5566;stroke-width:1}',
  '.ff-svg .state text{fill:#1F1A24;font-size:13px;font-weight:600}',
  '.ff-svg .state.uncovered>rect.box{stroke:#B3261E;stroke-dasharray:6 4;stroke-width:2}',
  '.ff-svg .initial circle{fill:#1F1A24}',
  '.ff-svg .initial path{stroke:#1F1A24;stroke-width:1.5}',
  '.ff-svg .edge path{fill:none;stroke:#5C5566;stroke-width:1.5}',
  '.ff-svg .edge text{fill:#1F1A24;font-size:11px}',
  '.ff-svg .edge rect{fill:#FFFFFF;opacity:.9}',
  '.ff-svg .edge.covered path{stroke:#1B6E3A}',
  '.ff-svg .edge.uncovered path{stroke:#B3261E;stroke-dasharray:6 4;stroke-width:2}',
  '.ff-svg .edge.uncovered text{fill:#B3261E;font-weight:700}',
].join('');

/** What the layer needs of one machine, read from the files `npm run flows` and `npm run test:paths` write. */
export interface FrameData {
  chart: Chart;
  layouts: StoredLayouts;
  coverage: MachineCoverage | undefined;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

const readJson = <T>(file: string): T | undefined => {
  const full = path.join(ROOT, file);
  if (!existsSync(full)) return undefined;
  try {
    return JSON.parse(readFileSync(full, 'utf8')) as T;
  } catch {
    return undefined;
  }
};

/** A machine's chart, layouts and paths; undefined when its chart or layouts are missing or the layouts no longer fit it (the page lays it out itself then). */
export function readFrameData(machine: string): FrameData | undefined {
  const data = readJson<ChartData>(`docs/flows/charts/${machine}.json`);
  const layouts = readJson<StoredLayouts>(`docs/flows/layouts/${machine}.json`);
  if (!data || !layouts) return undefined;
  const chart = fromChartData(data);
  if (!fitsChart(layouts.RIGHT, chart) || !fitsChart(layouts.DOWN, chart)) return undefined;
  return { chart, layouts, coverage: readJson<MachineCoverage>(`docs/coverage/paths/${machine}.json`) };
}

/** locales/<lang>/flows.json as the layer reads it. */
export function readFrameTexts(language: FrameLanguage): FrameTexts {
  const strings = readJson<Strings>(`locales/${language}/flows.json`);
  if (!strings) throw new Error(`locales/${language}/flows.json is missing`);
  return { strings, labels: strings.charts as ChartLabels | undefined };
}

/** The layer's markup and its placements' CSS for one machine in one language. */
export function flowsFrame(data: FrameData, texts: FrameTexts, language: FrameLanguage = 'sv'): { markup: string; css: string } {
  const { chart, layouts, coverage } = data;
  const t = (key: string, values?: Record<string, string>) => escapeHtml(tr(texts.strings, key, values));
  const title = chartTitle(texts.labels, chart);
  const ids: Record<Direction, string> = { RIGHT: 'flows-frame-right', DOWN: 'flows-frame-down' };
  const svg = (d: Direction) => chartSvg(chart, layouts[d], coverage, texts, `id="${ids[d]}" class="ff-svg" viewBox="0 0 ${layouts[d].width} ${layouts[d].height}"`);
  const button = (text: string, extra = '') => `<button type="button" class="ff-button${extra}">${text}</button>`;
  const header = publicHeader(undefined);
  const markup =
    `<div id="boot-page" class="boot-page" data-route="flows" lang="${language}" inert aria-hidden="true">${header}` +
    `<main class="bp-main"><div><section class="bp-container ff-page"><h1 class="ff-title">${t('title')}</h1>` +
    `<div class="ff-layout"><div class="ff-main"><div><div class="ff-head"><h2 class="ff-machine">${escapeHtml(title)}</h2>` +
    (coverage ? `<span class="ff-badge">${t('coverageShort', { transitions: `${coverage.transitions.covered}/${coverage.transitions.total}` })}</span>` : '') +
    `</div><div class="ff-box"><div class="ff-toolbar">` +
    `<div class="ff-group">${button(t('fit'))}${button(t('actualSize'))}${button('−', ' ff-icon')}<span class="ff-zoom"></span>${button('+', ' ff-icon')}</div>` +
    `<div class="ff-group">${button(t('exportSvg'))}${button(t('exportPng'))}</div>${button(t('fullscreen'))}</div>` +
    `<div class="ff-wrap"><div class="ff-frame"><div class="ff-inner">${svg('RIGHT')}${svg('DOWN')}</div></div></div>` +
    `</div></div></div></div></section></div></main></div>`;
  return { markup, css: placementCss(chart, layouts, ids) };
}
