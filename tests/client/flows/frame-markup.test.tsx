import { render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import chartIndex from '../../../docs/flows/charts/index.json';
import { pathsByTransition } from '../../../charts/chart.ts';
import { createI18n } from '../../../src/i18n.ts';
import { Diagram } from '../../../src/pages/flows/Diagram.tsx';
import { hydrate } from '../../../src/pages/flows/layout.ts';
import { chartSvg, readFrameData, readFrameTexts, type FrameLanguage } from '../../../server/spa/flowsFrame.ts';

/**
 * The chart the server draws into /flows's HTML (server/spa/flowsFrame.ts, decision 154) is
 * Diagram.tsx's first render on the page — no selection, nothing live, the coverage overlay on —
 * element for element: the same tags, attributes and text, for every machine, both layouts and
 * both languages. Only the `<svg>` element's own size, `viewBox` and class differ (the page fits
 * it to its frame; the server places the whole chart by CSS). A change to Diagram that the server
 * does not follow fails here.
 */

/** An element as a comparable tree: tag, attributes sorted, text, children. */
function shape(el: Element): unknown {
  const attrs = [...el.attributes].map((a) => `${a.name}=${a.value}`).sort();
  const children = [...el.childNodes].flatMap((n) =>
    n.nodeType === 1 ? [shape(n as Element)] : n.nodeType === 3 && n.textContent ? [`#text:${n.textContent}`] : [],
  );
  // Adjacent text nodes (React renders `{name}{mark}` as two) read as one.
  const merged: unknown[] = [];
  for (const c of children) {
    const last = merged[merged.length - 1];
    if (typeof c === 'string' && typeof last === 'string') merged[merged.length - 1] = `${last}${c.slice('#text:'.length)}`;
    else merged.push(c);
  }
  return { tag: el.tagName.toLowerCase(), attrs, children: merged };
}

/** What the page and the server may differ in: the `<svg>` element's own placement. */
const ROOT_ONLY = new Set(['class', 'width', 'height', 'viewbox', 'id']);
function rootShape(svg: Element) {
  const s = shape(svg) as { attrs: string[] };
  return { ...s, attrs: s.attrs.filter((a) => !ROOT_ONLY.has(a.split('=')[0]!.toLowerCase())) };
}


describe("the server's first frame is Diagram's first render", () => {
  const languages: FrameLanguage[] = ['sv', 'en'];
  for (const { id } of chartIndex) {
    it(id, () => {
      const data = readFrameData(id)!;
      expect(data).toBeDefined();
      const cov = data.coverage;
      for (const language of languages) {
        const texts = readFrameTexts(language);
        const i18n = createI18n(language);
        for (const dir of ['RIGHT', 'DOWN'] as const) {
          const stored = data.layouts[dir];
          const { container, unmount } = render(
            <I18nextProvider i18n={i18n}>
              <Diagram
                chart={data.chart}
                layout={hydrate(stored, data.chart)}
                marks={{
                  active: new Set(),
                  step: new Set(),
                  taken: new Set(),
                  coverage: cov && {
                    uncoveredStates: new Set(cov.states.uncovered),
                    uncoveredTransitions: new Set(cov.transitions.uncovered),
                    pathsByTransition: pathsByTransition(cov.paths),
                  },
                }}
                selection={null}
                onSelect={() => undefined}
                viewBox={{ x: 0, y: 0, width: stored.width, height: stored.height }}
                size={{ width: 800, height: 500 }}
              />
            </I18nextProvider>,
          );
          const page = container.querySelector('svg')!;
          const holder = document.createElement('div');
          holder.innerHTML = chartSvg(data.chart, stored, cov, texts, 'class="x"');
          const server = holder.querySelector('svg')!;
          expect(rootShape(server), `${id} ${dir} ${language}`).toEqual(rootShape(page));
          unmount();
        }
      }
    });
  }
});
