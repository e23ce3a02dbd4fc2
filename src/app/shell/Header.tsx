import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../components/session.ts';
import { loadNamespaces } from '../../i18n.ts';
import { header as headerSizes } from '../../../styles/tokens.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { LogoMark } from './Logo.tsx';
import { MenuIcon } from './icons.tsx';
import { NavLinks } from './NavLinks.tsx';
import { loginPath, navItemsFor, showsLogin, type HeaderVariant, type NavItem } from './navItems.ts';
import { useIsDesktop } from './useMediaQuery.ts';
import * as css from './shell.css.ts';

// Radix dialog and dropdown load only when needed (a small screen's menu, a signed-in user), so
// a visitor's first page stays small.
const loadNavDrawer = () => import('./NavDrawer.tsx');
const NavDrawer = lazy(() => loadNavDrawer().then((m) => ({ default: m.NavDrawer })));
// Each loads its strings beside its code (src/i18n.ts): the account menu names 'Mina sidor' and
// the unread count.
const AccountMenu = lazy(() =>
  Promise.all([import('./AccountMenu.tsx'), loadNamespaces(['my', 'notifications'])]).then(([m]) => ({ default: m.AccountMenu })),
);
// Asks a signed-in person with no name for one (my pages' chunk, loaded only for them).
const NamePrompt = lazy(() => Promise.all([import('../../pages/my/routes.tsx'), loadNamespaces(['my'])]).then(([m]) => ({ default: m.NamePrompt })));

/** The labelled menu button (below the desktop breakpoint) and the drawer it opens. */
function DrawerMenu({ items, showLogin }: { items: NavItem[]; showLogin: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const preload = () => void loadNavDrawer();
  return (
    <>
        <button
          ref={button}
          type="button"
          className={css.iconButton}
          aria-label={t('nav.openMenu')}
          aria-haspopup="dialog"
          aria-expanded={open}
          onPointerEnter={preload}
          onFocus={preload}
          onClick={() => {
            setWanted(true);
            setOpen(true);
          }}
        >
          <MenuIcon />
        </button>
        {wanted && (
          <Suspense fallback={null}>
            <NavDrawer open={open} onOpenChange={setOpen} items={items} showLogin={showLogin} triggerRef={button} />
          </Suspense>
        )}
    </>
  );
}

/** True once the page has scrolled past the header: the desktop header then shrinks to 64 px. */
function useScrolledPastHeader(): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > headerSizes.desktopHeight);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return scrolled;
}

/** Pages where the name prompt stays away. */
const QUIET_PATHS = ['/my/', '/greetie/new', '/redeem'];

/**
 * The site header: the logo (→ '/'), the navigation (in a drawer below the desktop breakpoint),
 * the language switch, and the account menu or 'Logga in'.
 * `variant="user"` (layout 1) shows a visitor only the two user entries. Below it, a signed-in
 * person with no name yet is asked for one (src/pages/my/NamePrompt.tsx).
 */
export function Header({ variant = 'public' }: { variant?: HeaderVariant }) {
  const { t } = useTranslation();
  const session = useSession();
  const signedIn = session.status === 'authenticated' && session.user !== null;
  const isDesktop = useIsDesktop();
  const offset = useScrolledPastHeader();
  const items = navItemsFor(signedIn, variant);
  const login = showsLogin(signedIn, variant);
  const { pathname } = useLocation();
  // My pages ask for the name themselves; a greetie being composed and the till screen are not
  // interrupted (on a phone the prompt would push the step, or the 'Handlarkod' field, down).
  const askName =
    signedIn && session.user?.name === null && !QUIET_PATHS.some((prefix) => pathname.startsWith(prefix));

  const account = signedIn && (
    <Suspense fallback={<span className={css.avatar} aria-hidden="true" />}>
      <AccountMenu />
    </Suspense>
  );

  return (
    <>
      <header className={css.header} data-offset={offset ? 'true' : 'false'} data-variant={variant}>
        <div className={css.headerInner}>
          {!isDesktop && <DrawerMenu items={items} showLogin={login} />}
          <Link to="/" className={css.logo} aria-label={t('nav.home')}>
            <LogoMark />
            <span aria-hidden="true">Greetie</span>
          </Link>
          {isDesktop && (
            <nav aria-label={t('nav.label')} className={css.desktopNav}>
              <NavLinks items={items} />
            </nav>
          )}
          <div className={css.headerActions}>
            {isDesktop && <LanguageSwitch />}
            {/* One element at every width, so crossing the breakpoint (a turned tablet) keeps the
                account menu mounted, and open if it was. */}
            <span className={isDesktop ? css.sessionSlot : css.sessionSlotNarrow} data-size-as={isDesktop ? t('nav.login') : undefined}>
              {isDesktop && login && (
                <Link to={loginPath} className={css.button}>
                  {t('nav.login')}
                </Link>
              )}
              {account}
            </span>
          </div>
        </div>
      </header>
      {askName && (
        <Suspense fallback={null}>
          <NamePrompt />
        </Suspense>
      )}
    </>
  );
}
