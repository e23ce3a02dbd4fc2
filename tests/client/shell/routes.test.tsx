import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router-dom';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { routes } from '../../../src/app/routes.tsx';
import { installDomStubs, renderRoute, signedIn, visitor } from './render.tsx';

beforeEach(() => {
  installDomStubs();
  // Pages that call the API get a quick, honest failure instead of a network error.
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
    new Response(JSON.stringify({ message: 'Finns inte', code: 'NOT_FOUND' }), {
      status: 404,
      headers: { 'content-type': 'application/json' },
    }),
  );
});

/** Every leaf route (a page), with its full path. */
function pageRoutes(list: RouteObject[], prefix = ''): Array<{ path: string; route: RouteObject }> {
  return list.flatMap((r) => {
    const path = r.index ? prefix || '/' : r.path ? `${prefix}/${r.path}`.replace(/\/+/g, '/') : prefix;
    if (r.children?.length) return pageRoutes(r.children, path);
    return [{ path, route: r }];
  });
}

const pages = pageRoutes(routes).filter((p) => p.path !== '/*');

/** The paths the product specification names, with sample ids. */
const specifiedPaths = [
  '/',
  '/start',
  '/auth/jwt/login',
  '/my/profile',
  '/my/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f',
  '/redeem',
  '/redeem/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f?merchant=1',
  '/redeem/voucher/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f',
  '/voucher',
  '/voucher/list',
  '/voucher/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f',
  '/greetie',
  '/greetie/list',
  '/greetie/new',
  '/greetie/details/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f',
  '/greetie/view/AbC123',
  '/greetie/view/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f?byId=true',
  '/merchant',
  '/merchant/list',
  '/merchant/details/0b9c6c1e-2f43-4b8e-9d2c-9a1f0c1d2e3f',
  '/404',
];

describe('route table', () => {
  it('loads every page lazily, by route group', async () => {
    expect(pages.length).toBeGreaterThan(15);
    for (const { path, route } of pages) {
      expect(typeof route.lazy, `${path} should be lazy`).toBe('function');
      expect(route.element, `${path} should not import its page eagerly`).toBeUndefined();
      expect(route.Component, `${path} should not import its page eagerly`).toBeUndefined();
    }
    // Each lazy route resolves to the page component it names.
    for (const { path, route } of pages) {
      const loaded = await (route.lazy as () => Promise<{ Component?: unknown }>)();
      expect(typeof loaded.Component, `${path} resolves to a component`).toBe('function');
    }
  });

  it('imports pages only through dynamic imports, one module per route group', () => {
    const source = readFileSync(resolve(__dirname, '../../../src/app/routes.tsx'), 'utf8');
    expect(source, 'no static import of a page').not.toMatch(/^import[^;]*from '\.\.\/pages\//m);
    const groups = [...source.matchAll(/import\('\.\.\/pages\/([a-z-]+)\/routes\.tsx'\)/g)].map((m) => m[1]);
    expect(new Set(groups).size, 'each group is imported once').toBe(groups.length);
    expect(groups).toEqual(expect.arrayContaining(['landing', 'auth', 'my', 'redeem', 'voucher', 'greetie', 'merchant', 'errors']));
  });

  it.each(specifiedPaths)('has a route for %s (a path the specification names)', async (path) => {
    // The sign-in page is for visitors; every other page can be seen signed in.
    const { router } = renderRoute(path, { session: path.startsWith('/auth/') ? visitor : signedIn() });
    await screen.findByRole('heading', { level: 1 });
    // Making a greetie names its step in the address as it opens (the first: /greetie/new/media).
    const shown = path === '/greetie/new' ? '/greetie/new/media' : path.split('?')[0];
    await waitFor(() => expect(router.state.location.pathname).toBe(shown));
  });

  it('redirects an unknown path to /404, replacing the history entry', async () => {
    const { router } = renderRoute('/', { session: visitor });
    await screen.findByRole('heading', { level: 1 });
    await router.navigate('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sidan finns inte' })).toBeInTheDocument();
    // The unknown entry was replaced: one step back is the page before it.
    expect(router.state.historyAction).toBe('REPLACE');
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  const sessions = { visitor, 'signed in': signedIn() };
  const titleCases = Object.keys(sessions).flatMap((who) => specifiedPaths.map((path) => [path, who] as const));
  it.each(titleCases)('gives %s a real title (h1) and document title (%s)', async (path, who) => {
    document.title = '';
    renderRoute(path, { session: sessions[who as keyof typeof sessions] });
    const h1 = await screen.findByRole('heading', { level: 1 });
    // A heading may hold a no-break space that keeps its last words together; a tab's title has none.
    const text = (h1.textContent ?? '').replace(/\u00a0/gu, ' ').trim();
    expect(text).not.toBe('');
    await waitFor(() => expect([text, `${text} · Greetie`]).toContain(document.title));
  });
});

describe('layouts', () => {
  it("layout 1 (user areas) has the header's 'user' variant", async () => {
    renderRoute('/voucher', { session: signedIn() });
    await screen.findByRole('heading', { level: 1 });
    const header = screen.getByRole('banner');
    expect(header).toHaveAttribute('data-variant', 'user');
  });

  it('layout 2 (public) has the full header: merchants, 404, landing, start', async () => {
    for (const path of ['/', '/start', '/merchant', '/404']) {
      const { unmount } = renderRoute(path, { session: visitor });
      await screen.findByRole('heading', { level: 1 });
      expect(screen.getByRole('banner'), path).toHaveAttribute('data-variant', 'public');
      unmount();
    }
  });

  it('layout 3 (minimal) has only a top-left menu and no header', async () => {
    renderRoute('/greetie/view/AbC123', { session: visitor });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Meny' })).toBeInTheDocument();
  });
});
