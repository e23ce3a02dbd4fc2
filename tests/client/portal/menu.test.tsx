import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installDomStubs, renderRoute, signedIn } from '../shell/render.tsx';
import { installPortalServer, json, owner, type PortalServer } from './fakePortal.ts';

let server: PortalServer;
const me = (merchants = [owner]) => signedIn({ id: 'u1', merchants });

// The account menu is its own lazy chunk with the 'my' and 'notifications' strings: on a busy
// machine, transforming them cold takes seconds.
beforeEach(() => {
  installDomStubs({ viewport: 'mobile' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("'För handlare' in the account menu", () => {
  it('is there for a person who works for a merchant, and not for others', async () => {
    server = installPortalServer([owner]);
    const first = renderRoute('/portal', { session: me() });
    // One merchant: /portal goes on to its page, and focus to that page (RootLayout) once it is
    // there. Only then is the button focused: focused before, it would lose focus to the page.
    await screen.findByRole('heading', { level: 1, name: 'Café Kanelbullen' }, { timeout: 15_000 });
    // By keyboard, as a screen reader user opens it.
    (await screen.findByRole('button', { name: /^Konto/ }, { timeout: 15_000 })).focus();
    await first.user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu', undefined, { timeout: 15_000 });
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Hem', 'Mina sidor', 'Notiser', 'För handlare', 'Logga ut']);
    expect(await screen.findByRole('menuitem', { name: 'För handlare' })).toHaveAttribute('href', '/portal');
    first.unmount();
    server.merchants = () => json(200, []);
    const second = renderRoute('/portal', { session: signedIn({ id: 'u2', merchants: [] }) });
    await screen.findByRole('heading', { level: 1, name: 'Handlarsidorna är för handlare' });
    (await screen.findByRole('button', { name: /^Konto/ }, { timeout: 15_000 })).focus();
    await second.user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'Logga ut' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'För handlare' })).not.toBeInTheDocument();
  }, 60_000);
});
