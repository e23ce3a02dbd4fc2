import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { installDomStubs, renderRoute, signedIn, visitor } from './render.tsx';
import { readSettings, settings, defaultSettings } from '../../../src/settings.ts';
import { accountMenuWidth, desktopBreakpoint, drawerWidth, header } from '../../../styles/tokens.ts';
import { headerHeightRule, headerOffsetRule } from '../../../src/app/shell/motion.ts';
import { initialOf } from '../../../src/app/shell/AccountMenu.tsx';
import { Header } from '../../../src/app/shell/Header.tsx';

async function ready() {
  await screen.findByRole('heading', { level: 1 });
  return screen.getByRole('banner');
}

describe('header (desktop)', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'desktop' });
  });

  it('has the logo linking to the home page', async () => {
    const banner = await (renderRoute('/merchant'), ready());
    expect(within(banner).getByRole('link', { name: 'Greetie – till startsidan' })).toHaveAttribute('href', '/');
  });

  it("shows a signed-in user 'Mina greeties' and 'Mina gåvor', and no 'Logga in'", async () => {
    const banner = await (renderRoute('/', { session: signedIn() }), ready());
    const nav = within(banner).getByRole('navigation', { name: 'Huvudmeny' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Mina greeties', '/greetie'],
      ['Mina gåvor', '/voucher'],
    ]);
    expect(within(banner).queryByRole('link', { name: 'Logga in' })).not.toBeInTheDocument();
    expect(await within(banner).findByRole('button', { name: 'Konto' })).toBeInTheDocument();
  });

  it("shows a visitor 'Handlare', the two external links and 'Logga in'", async () => {
    const banner = await (renderRoute('/', { session: visitor }), ready());
    const nav = within(banner).getByRole('navigation', { name: 'Huvudmeny' });
    expect(within(nav).getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Handlare', '/merchant'],
      ['Hur fungerar det?', settings.howItWorksUrl],
      ['Om greetie', settings.aboutUrl],
    ]);
    expect(within(banner).getByRole('link', { name: 'Logga in' })).toHaveAttribute('href', '/auth/jwt/login');
    expect(within(banner).queryByRole('button', { name: 'Konto' })).not.toBeInTheDocument();
  });

  it('takes the external link addresses from settings, with defaults', () => {
    expect(readSettings({}).howItWorksUrl).toBe(defaultSettings.howItWorksUrl);
    expect(readSettings({}).aboutUrl).toBe(defaultSettings.aboutUrl);
    expect(defaultSettings.howItWorksUrl).toMatch(/^https:\/\//);
    const custom = readSettings({ VITE_HOW_IT_WORKS_URL: 'https://example.se/how', VITE_ABOUT_URL: 'https://example.se/about' });
    expect(custom.howItWorksUrl).toBe('https://example.se/how');
    expect(custom.aboutUrl).toBe('https://example.se/about');
  });

  it("the 'user' variant (layout 1) shows a visitor only the two user entries", async () => {
    // Layout 1's pages are behind sign-in, so render its header on its own for a visitor.
    const banner = await (renderRoute('/', { session: visitor, routes: [{ path: '/', element: <><Header variant="user" /><main><h1>Test</h1></main></> }] }), ready());
    const nav = within(banner).getByRole('navigation', { name: 'Huvudmeny' });
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual(['Mina greeties', 'Mina gåvor']);
    expect(within(banner).queryByRole('link', { name: 'Logga in' })).not.toBeInTheDocument();
    expect(within(banner).queryByRole('link', { name: 'Handlare' })).not.toBeInTheDocument();
  });

  it('has the language switch in the header', async () => {
    const banner = await (renderRoute('/'), ready());
    expect(within(banner).getByLabelText('Språk')).toBeInTheDocument();
  });

  it('has no drawer button at desktop width', async () => {
    const banner = await (renderRoute('/'), ready());
    expect(within(banner).queryByRole('button', { name: 'Öppna menyn' })).not.toBeInTheDocument();
  });

  it('is 56 px on mobile, 80 px on desktop and 64 px on desktop once scrolled (offset)', async () => {
    expect(header).toEqual({ mobileHeight: 56, desktopHeight: 80, desktopOffsetHeight: 64 });
    expect(headerHeightRule.height).toBe('56px');
    expect(Object.values(headerHeightRule['@media'])).toEqual([{ height: '80px' }]);
    expect(Object.values(headerOffsetRule['@media'])).toEqual([{ height: '64px' }]);
    await (renderRoute('/'), ready());
    // Query the banner afresh each time and scroll until the listener answers: on a busy machine
    // the page may still be settling (and re-rendering the header) when the first scroll fires.
    expect(screen.getByRole('banner')).toHaveAttribute('data-offset', 'false');
    Object.defineProperty(window, 'scrollY', { value: 200, configurable: true });
    await waitFor(() => {
      act(() => {
        fireEvent.scroll(window);
      });
      expect(screen.getByRole('banner')).toHaveAttribute('data-offset', 'true');
    });
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    await waitFor(() => {
      act(() => {
        fireEvent.scroll(window);
      });
      expect(screen.getByRole('banner')).toHaveAttribute('data-offset', 'false');
    });
  });
});

describe('header below the desktop breakpoint: the drawer', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'mobile' });
  });

  it('puts the navigation in a drawer (Radix dialog, 260 wide) opened by a labelled menu button', async () => {
    expect(desktopBreakpoint).toBe(1200);
    expect(drawerWidth).toBe(260);
    const { user } = renderRoute('/', { session: visitor });
    const banner = await ready();
    expect(within(banner).queryByRole('navigation')).not.toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Öppna menyn' }));
    const drawer = await screen.findByRole('dialog', { name: 'Meny' });
    const nav = within(drawer).getByRole('navigation', { name: 'Huvudmeny' });
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual([
      'Handlare',
      'Hur fungerar det?',
      'Om greetie',
    ]);
    expect(within(drawer).getByRole('link', { name: 'Logga in' })).toHaveAttribute('href', '/auth/jwt/login');
    expect(within(drawer).getByLabelText('Språk')).toBeInTheDocument();
  });

  it('closes the drawer when a link is followed, and with its close button', async () => {
    const { user, router } = renderRoute('/', { session: visitor });
    const banner = await ready();
    await user.click(within(banner).getByRole('button', { name: 'Öppna menyn' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('link', { name: 'Handlare' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/merchant'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Öppna menyn' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Stäng menyn' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a signed-in user their entries in the drawer and keeps the account button in the header', async () => {
    const { user } = renderRoute('/', { session: signedIn() });
    const banner = await ready();
    expect(await within(banner).findByRole('button', { name: 'Konto' })).toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Öppna menyn' }));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getAllByRole('link').map((l) => l.textContent)).toEqual(['Mina greeties', 'Mina gåvor']);
  });
});

describe('account menu', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'desktop' });
  });

  it('is 200 wide', () => {
    expect(accountMenuWidth).toBe(200);
  });

  it("opens from an avatar button labelled 'Konto' showing the name's first letter, and shows the name", async () => {
    const { user } = renderRoute('/', { session: signedIn({ name: 'åsa Öberg' }) });
    const banner = await ready();
    const avatar = await within(banner).findByRole('button', { name: 'Konto' });
    expect(avatar).toHaveTextContent(/^Å$/);
    await user.click(avatar);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('åsa Öberg')).toBeInTheDocument();
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Hem', 'Mina sidor', 'Notiser', 'Logga ut']);
  });

  it('shows the mobile number when the user has no name', async () => {
    const { user } = renderRoute('/', { session: signedIn({ name: null, mobileNumber: '+46701234567' }) });
    const banner = await ready();
    const avatar = await within(banner).findByRole('button', { name: 'Konto' });
    expect(avatar.textContent).toBe('');
    await user.click(avatar);
    expect(within(await screen.findByRole('menu')).getByText('+46701234567')).toBeInTheDocument();
  });

  it("'Hem' goes to '/'", async () => {
    const { user, router } = renderRoute('/voucher', { session: signedIn() });
    const banner = await ready();
    await user.click(await within(banner).findByRole('button', { name: 'Konto' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Hem' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it("'Logga ut' signs out, then goes to '/' with the visitor's header", async () => {
    const signOut = vi.fn();
    const { user, router } = renderRoute('/voucher', { session: signedIn({}, signOut) });
    const banner = await ready();
    await user.click(await within(banner).findByRole('button', { name: 'Konto' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logga ut' }));
    expect(signOut).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    // The auth machine signed out: the header is the visitor's.
    const after = await screen.findByRole('banner');
    expect(await within(after).findByRole('link', { name: 'Logga in' })).toBeInTheDocument();
    expect(within(after).queryByRole('button', { name: 'Konto' })).not.toBeInTheDocument();
  });

  it('takes the first letter of the name', () => {
    expect(initialOf('anna')).toBe('A');
    expect(initialOf('  Östen')).toBe('Ö');
    expect(initialOf(null)).toBe('');
    expect(initialOf('')).toBe('');
  });
});

describe('minimal layout menu (layout 3)', () => {
  beforeEach(() => {
    installDomStubs({ viewport: 'desktop' });
  });

  it('offers a visitor home, merchants and sign in (back to the greetie)', async () => {
    const { user } = renderRoute('/greetie/view/AbC123', { session: visitor });
    await screen.findByRole('heading', { level: 1 });
    await user.click(await screen.findByRole('button', { name: 'Meny' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => [i.textContent, i.getAttribute('href')])).toEqual([
      ['Hem', '/'],
      ['Handlare', '/merchant'],
      ['Logga in', '/auth/jwt/login?returnTo=%2Fgreetie%2Fview%2FAbC123'],
      ['In English', null],
    ]);
  });

  it('offers a signed-in user their pages and sign out', async () => {
    const signOut = vi.fn();
    const { user, router } = renderRoute('/greetie/view/AbC123', { session: signedIn({}, signOut) });
    await screen.findByRole('heading', { level: 1 });
    await user.click(await screen.findByRole('button', { name: 'Meny' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
      'Hem',
      'Mina greeties',
      'Mina gåvor',
      'In English',
      'Logga ut',
    ]);
    await user.click(within(menu).getByRole('menuitem', { name: 'Logga ut' }));
    expect(signOut).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sits in the top-left corner as the only navigation', async () => {
    renderRoute('/greetie/view/AbC123', { session: visitor });
    await screen.findByRole('heading', { level: 1 });
    await screen.findByRole('button', { name: 'Meny' });
    expect(screen.getAllByRole('navigation')).toHaveLength(1);
    expect(screen.queryByRole('banner')).not.toBeInTheDocument();
  });
});
