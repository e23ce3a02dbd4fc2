import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { createI18n } from '../../../src/i18n.ts';
import { FlowsPage } from '../../../src/pages/flows/FlowsPage.tsx';

/** /flows rendered with the sandbox on (or off), in a memory router the test can read back. */
export function renderFlows(path = '/flows', sandboxStatus = 200) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.endsWith('/api/sandbox')) {
      return new Response(sandboxStatus === 200 ? '{"enabled":true}' : '{"message":"Hittades inte","code":"NOT_FOUND"}', {
        status: sandboxStatus,
        headers: { 'content-type': 'application/json' },
      });
    }
    throw new Error(`unexpected fetch ${url}`);
  });
  const router = createMemoryRouter([{ path: '/flows', element: <FlowsPage /> }, { path: '*', element: <p>annan sida</p> }], {
    initialEntries: [path],
  });
  render(
    <I18nextProvider i18n={createI18n('sv')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  return router;
}

/**
 * jsdom lays nothing out: the chart frame learns its size from this ResizeObserver, as a browser's
 * would report it. Every observed element measures `size`; `resizeFrames` changes it, as a window
 * resize would.
 */
export function stubResizeObserver(initial = { width: 1000, height: 600 }) {
  let size = initial;
  const observed = new Set<{ callback: ResizeObserverCallback; target: Element; self: ResizeObserver }>();
  const report = (o: { callback: ResizeObserverCallback; target: Element; self: ResizeObserver }) => {
    const entry = { target: o.target, contentRect: { ...size, x: 0, y: 0, top: 0, left: 0, right: size.width, bottom: size.height } };
    o.callback([entry as unknown as ResizeObserverEntry], o.self);
  };
  class ResizeObserverStub {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element) {
      const o = { callback: this.callback, target, self: this as unknown as ResizeObserver };
      observed.add(o);
      queueMicrotask(() => observed.has(o) && report(o));
    }
    unobserve() {}
    disconnect() {
      for (const o of observed) if (o.self === (this as unknown as ResizeObserver)) observed.delete(o);
    }
  }
  vi.stubGlobal('ResizeObserver', ResizeObserverStub);
  return {
    resizeFrames(next: { width: number; height: number }) {
      size = next;
      act(() => observed.forEach(report));
    },
  };
}

/**
 * The drawn chart, once the rest of the page has come too: what is below the chart renders after
 * the chart is drawn (decision 139), and the journey once every machine's chart has loaded after
 * it (decision 142), so a test reading them waits for the last section and the journey.
 */
export async function diagram(): Promise<HTMLElement> {
  const svg = await screen.findByRole('group', { name: /Diagram över/ }, { timeout: 10_000 });
  await screen.findByRole('heading', { name: 'Igång i appen' }, { timeout: 10_000 });
  await screen.findByRole('region', { name: 'Resan genom appen' }, { timeout: 10_000 });
  return svg;
}
