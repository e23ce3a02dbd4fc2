import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chart } from '../../../charts/chart.ts';
import { Diagram, type DiagramMarks, type Selection } from './Diagram.tsx';
import { download, standaloneSvg, svgToPng } from './exportChart.ts';
import { cachedLayouts, layoutsNow, type ChartLayout, type Direction } from './layout.ts';
import { useChartLabels } from './labels.ts';
import {
  chooseDirection,
  clampView,
  centreOn,
  fitView,
  openView,
  panView,
  revealBox,
  showsWhole,
  visibleBox,
  zoomIn,
  zoomOut,
  type Box,
  type Size,
  type View,
} from './view.ts';
import * as css from './flows.css.ts';

const PAN_STEP = 60;
/** A pointer that moves less than this is a click, not a drag. */
const DRAG_THRESHOLD = 4;
const OVERVIEW = { width: 180, height: 120 };

/** The frame's size in CSS pixels, following it as the window changes (ResizeObserver). */
function useFrameSize(): [(el: HTMLDivElement | null) => void, Size | null] {
  const [size, setSize] = useState<Size | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!el) return;
    const set = (width: number, height: number) =>
      setSize((prev) => (prev && prev.width === width && prev.height === height ? prev : { width, height }));
    set(el.clientWidth, el.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box) set(box.width, box.height);
    });
    observer.current.observe(el);
  }, []);
  return [ref, size];
}

/**
 * Both layouts of a chart (left to right, top to bottom), so the frame can take the one that suits
 * it: at once when the route's early load has brought them (decision 139), else when they arrive.
 */
function useLayouts(chart: Chart): Record<Direction, ChartLayout> | 'failed' | null {
  const [layouts, setLayouts] = useState<{ id: string; value: Record<Direction, ChartLayout> | 'failed' } | null>(() => {
    const now = layoutsNow(chart);
    return now ? { id: chart.id, value: now } : null;
  });
  const labels = useChartLabels();
  const texts = labels.texts;
  useEffect(() => {
    let live = true;
    if (layouts?.id === chart.id) return;
    cachedLayouts(chart, texts(chart)).then(
      ({ RIGHT, DOWN }) => live && setLayouts({ id: chart.id, value: { RIGHT, DOWN } }),
      () => live && setLayouts({ id: chart.id, value: 'failed' }),
    );
    return () => {
      live = false;
    };
    // Only a new chart (or language) asks again; the layouts' own arrival does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [chart, texts]);
  return layouts?.id === chart.id ? layouts.value : null;
}

/** The box of a state or a transition's label in a layout. */
function boxOf(layout: ChartLayout, target: Selection): Box | undefined {
  if (!target) return undefined;
  if (target.kind === 'state') return layout.states.find((s) => s.state.id === target.id);
  return layout.edges.find((e) => e.key === target.key)?.label;
}

/** Where the flow starts: the machine's initial state. */
function startOf(chart: Chart, layout: ChartLayout): Box | undefined {
  const initial = chart.states.find((s) => s.id === chart.root)?.initial;
  return initial ? boxOf(layout, { kind: 'state', id: initial }) : undefined;
}

/**
 * A chart in a frame of its own: opens fitted (or, where fitted text would be too small to read,
 * at 100 % with an overview), zooms with 'Anpassa' / '100 %' / − / +, pans by dragging and by
 * the arrow keys, refits when the window changes size, and exports what it shows as SVG or PNG.
 * `reveal` is brought into view when it changes (a state from a link, the path's current step).
 */
export function ChartFrame({
  chart,
  marks,
  selection,
  onSelect,
  reveal,
  show,
  onDrawn,
}: {
  chart: Chart;
  marks: DiagramMarks;
  selection: Selection;
  onSelect: (s: Selection) => void;
  reveal: Selection;
  /**
   * A part to bring into view now, each time `n` changes (a change chosen in "Visa ändringar"'s
   * list, the first change when they are turned on): panned to in the frame unless it is in view
   * already, and the frame scrolled into the window if it is out of it.
   */
  show?: { target: Selection; n: number };
  /** Called once the chart is drawn (or cannot be): the page's later work waits for it. */
  onDrawn?: () => void;
}) {
  const { t } = useTranslation('flows');
  const [frameRef, frame] = useFrameSize();
  const frameEl = useRef<HTMLDivElement | null>(null);
  const setFrame = useCallback(
    (el: HTMLDivElement | null) => {
      frameEl.current = el;
      frameRef(el);
    },
    [frameRef],
  );
  const layouts = useLayouts(chart);
  const labels = useChartLabels();
  const [full, setFull] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Leaving the browser's full screen (Esc, the browser's own control) leaves ours too.
  useEffect(() => {
    const left = () => {
      if (!document.fullscreenElement) setFull(false);
    };
    document.addEventListener('fullscreenchange', left);
    return () => document.removeEventListener('fullscreenchange', left);
  }, []);
  const toggleFull = async () => {
    if (full) {
      if (document.fullscreenElement) await document.exitFullscreen().catch(() => undefined);
      setFull(false);
      return;
    }
    // The Fullscreen API where there is one; elsewhere (an iPhone's Safari) the frame covers the window.
    if (document.fullscreenEnabled && box.current?.requestFullscreen) await box.current.requestFullscreen().catch(() => undefined);
    setFull(true);
  };
  const svg = useRef<SVGSVGElement>(null);
  const [view, setView] = useState<{ layout: ChartLayout; view: View } | null>(null);
  const [exportFailed, setExportFailed] = useState(false);
  const drag = useRef<{ pointer: number; x: number; y: number; dragging: boolean } | null>(null);
  const revealed = useRef<string | null>(null);

  const usable = frame && frame.width > 0 && frame.height > 0 ? frame : null;
  const layout =
    layouts && layouts !== 'failed' && usable
      ? layouts[chooseDirection({ RIGHT: layouts.RIGHT, DOWN: layouts.DOWN }, usable)]
      : layouts && layouts !== 'failed'
        ? layouts.RIGHT
        : null;

  // A fitted view stays fitted whatever the frame's size (and the layout that suits it); a chosen
  // one is kept in reach; a chart seen for the first time opens as openView says. Before the
  // browser paints, so the first frame with the layout shows the chart, not "Ritar…" (decision 139).
  useLayoutEffect(() => {
    if (!layout || !usable) return;
    setView((prev) => {
      if (prev?.view.mode === 'fit') return { layout, view: fitView(layout, usable) };
      if (!prev || prev.layout !== layout) return { layout, view: openView(layout, usable, startOf(chart, layout)) };
      return { layout, view: clampView(prev.view, layout, usable) };
    });
  }, [layout, usable, chart]);

  const current = view && view.layout === layout ? view.view : null;
  const change = (fn: (v: View, content: Size, f: Size) => View) => {
    if (!layout || !usable) return;
    setView((prev) => (prev && prev.layout === layout ? { layout, view: fn(prev.view, layout, usable) } : prev));
  };

  /** A state or transition into the frame's view, and the frame into the window's. */
  const bringIntoView = (target: Selection) => {
    const box = layout && boxOf(layout, target);
    if (!box) return;
    change((v, content, f) => revealBox(v, box, content, f));
    const el = frameEl.current;
    const rect = el?.getBoundingClientRect();
    if (el && rect && (rect.top < 0 || rect.bottom > window.innerHeight)) el.scrollIntoView?.({ block: 'nearest' });
  };

  // Bring what the page asks for into view once per layout (a link's state, a path's step).
  const revealKey = reveal ? (reveal.kind === 'state' ? `s:${reveal.id}` : `t:${reveal.key}`) : null;
  useEffect(() => {
    if (!layout || !usable || !current || !revealKey) return;
    const key = `${chart.id}:${layout.width}x${layout.height}:${revealKey}`;
    if (revealed.current === key) return;
    revealed.current = key;
    bringIntoView(reveal);
  });
  const shown = useRef<number | null>(null);
  useEffect(() => {
    if (!layout || !usable || !current || !show || shown.current === show.n) return;
    shown.current = show.n;
    bringIntoView(show.target);
  });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? PAN_STEP * 4 : PAN_STEP;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    const move = moves[e.key];
    if (move && e.target === e.currentTarget) {
      e.preventDefault();
      change((v, c, f) => panView(v, move[0], move[1], c, f));
    } else if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      change(zoomIn);
    } else if (e.key === '-') {
      e.preventDefault();
      change(zoomOut);
    } else if (e.key === '0') {
      e.preventDefault();
      change((_v, c, f) => fitView(c, f));
    }
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    drag.current = { pointer: e.pointerId, x: e.clientX, y: e.clientY, dragging: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointer !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.dragging) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      // Captured only once it is a drag: a click on a state still reaches the state.
      d.dragging = true;
      e.currentTarget.setPointerCapture?.(e.pointerId);
    }
    d.x = e.clientX;
    d.y = e.clientY;
    change((v, c, f) => panView(v, dx, dy, c, f));
  };
  const onPointerUp = () => {
    drag.current = null;
  };

  const exportAs = async (kind: 'svg' | 'png') => {
    if (!svg.current || !layout) return;
    setExportFailed(false);
    try {
      const text = standaloneSvg(svg.current, layout);
      const blob = kind === 'svg' ? new Blob([text], { type: 'image/svg+xml' }) : await svgToPng(text, layout);
      download(blob, `greetie-${chart.id}.${kind}`);
    } catch {
      setExportFailed(true);
    }
  };

  const drawn = Boolean(current) || layouts === 'failed';
  const drawnOnce = useRef(false);
  useEffect(() => {
    if (!drawn || drawnOnce.current) return;
    drawnOnce.current = true;
    onDrawn?.();
  }, [drawn, onDrawn]);

  const whole = current && layout && usable ? showsWhole(current, layout, usable) : true;
  const visible = current && usable ? visibleBox(current, usable) : null;

  return (
    <div
      ref={box}
      className={full ? `${css.chartBox} ${css.chartBoxFull}` : css.chartBox}
      onKeyDown={(e) => {
        if (full && e.key === 'Escape' && !document.fullscreenElement) setFull(false);
      }}
    >
      <div className={css.chartToolbar}>
        <div className={css.buttonGroup} role="group" aria-label={t('zoomGroup')}>
          <button type="button" className={css.smallButton} onClick={() => change((_v, c, f) => fitView(c, f))} disabled={!current}>
            {t('fit')}
          </button>
          <button type="button" className={css.smallButton} onClick={() => change((v, c, f) => clampView({ ...v, scale: 1, mode: 'free' }, c, f))} disabled={!current}>
            {t('actualSize')}
          </button>
          <button type="button" className={`${css.smallButton} ${css.iconButton}`} onClick={() => change(zoomOut)} aria-label={t('zoomOut')} disabled={!current}>
            −
          </button>
          <span className={css.zoomValue} aria-live="polite">
            {current ? `${Math.round(current.scale * 100)} %` : ''}
          </span>
          <button type="button" className={`${css.smallButton} ${css.iconButton}`} onClick={() => change(zoomIn)} aria-label={t('zoomIn')} disabled={!current}>
            +
          </button>
        </div>
        <div className={css.buttonGroup} role="group" aria-label={t('exportGroup')}>
          <button type="button" className={css.smallButton} onClick={() => void exportAs('svg')} disabled={!current}>
            {t('exportSvg')}
          </button>
          <button type="button" className={css.smallButton} onClick={() => void exportAs('png')} disabled={!current}>
            {t('exportPng')}
          </button>
        </div>
        <button type="button" className={css.smallButton} aria-pressed={full} onClick={() => void toggleFull()}>
          {full ? t('exitFullscreen') : t('fullscreen')}
        </button>
      </div>
      {exportFailed && <p role="alert">{t('exportFailed')}</p>}
      <div className={css.frameWrap}>
        <div
          ref={setFrame}
          className={css.frame}
          tabIndex={0}
          role="region"
          aria-label={t('frameLabel', { title: labels.title(chart) })}
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          data-scale={current?.scale}
        >
          {layouts === 'failed' ? (
            <p role="alert">{t('layoutFailed')}</p>
          ) : !layout || !current || !usable || !visible ? (
            <p role="status">{t('drawing')}</p>
          ) : (
            <Diagram
              chart={chart}
              layout={layout}
              marks={marks}
              selection={selection}
              onSelect={onSelect}
              viewBox={visible}
              size={usable}
              svgRef={svg}
              onFocusBox={(box) => {
                // Only what the keyboard reached: a click focuses too, on something already in view.
                if (!drag.current) change((v, c, f) => revealBox(v, box, c, f));
              }}
            />
          )}
        </div>
        {layout && current && usable && visible && !whole && (
          <Overview layout={layout} visible={visible} onMove={(x, y) => change((v, c, f) => centreOn(v, x, y, c, f))} />
        )}
      </div>
    </div>
  );
}

/**
 * The whole chart small, with the part in view outlined; a click or a drag on it moves the view
 * there. Pointer only (the arrow keys do the same in the frame), so hidden from screen readers.
 */
function Overview({ layout, visible, onMove }: { layout: ChartLayout; visible: Box; onMove: (x: number, y: number) => void }) {
  const k = Math.min(OVERVIEW.width / layout.width, OVERVIEW.height / layout.height);
  const width = layout.width * k;
  const height = layout.height * k;
  const moving = useRef(false);
  const moveTo = (e: PointerEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    onMove((e.clientX - r.left) / k, (e.clientY - r.top) / k);
  };
  return (
    <svg
      className={css.overview}
      width={width}
      height={height}
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      aria-hidden="true"
      data-testid="overview"
      onPointerDown={(e) => {
        moving.current = true;
        e.currentTarget.setPointerCapture?.(e.pointerId);
        moveTo(e);
      }}
      onPointerMove={(e) => moving.current && moveTo(e)}
      onPointerUp={() => (moving.current = false)}
      onPointerCancel={() => (moving.current = false)}
    >
      {layout.states.map((s) => (
        <rect key={s.state.id} className={s.compound ? 'compound' : 'state'} x={s.x} y={s.y} width={s.width} height={s.height} rx={8} />
      ))}
      <rect className="visible" x={visible.x} y={visible.y} width={visible.width} height={visible.height} />
    </svg>
  );
}
