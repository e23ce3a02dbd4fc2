import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { NavLinks } from './NavLinks.tsx';
import { loginPath, type NavItem } from './navItems.ts';
import * as css from './shell.css.ts';

function MenuIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** Below the desktop breakpoint: the navigation and the language switch in a 260 px drawer. */
export function NavDrawer({ items, showLogin }: { items: NavItem[]; showLogin: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className={css.iconButton} aria-label={t('nav.openMenu')}>
        <MenuIcon />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={css.overlay} />
        <Dialog.Content className={css.drawer} aria-describedby={undefined} data-testid="nav-drawer">
          <div className={css.drawerHead}>
            <Dialog.Title className={css.drawerTitle}>{t('nav.menu')}</Dialog.Title>
            <Dialog.Close className={css.iconButton} aria-label={t('nav.closeMenu')}>
              <CloseIcon />
            </Dialog.Close>
          </div>
          <nav aria-label={t('nav.label')}>
            <NavLinks items={items} vertical onNavigate={close} />
          </nav>
          {showLogin && (
            <Link to={loginPath} className={css.button} onClick={close}>
              {t('nav.login')}
            </Link>
          )}
          <LanguageSwitch />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
