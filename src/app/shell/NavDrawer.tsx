import type { RefObject } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as Dialog from '@radix-ui/react-dialog';
import { CloseIcon } from './icons.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { NavLinks } from './NavLinks.tsx';
import { loginPath, type NavItem } from './navItems.ts';
import * as css from './shell.css.ts';

export interface NavDrawerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: NavItem[];
  showLogin: boolean;
  /** The header's menu button: focus goes back there when the drawer closes. */
  triggerRef: RefObject<HTMLButtonElement | null>;
}

/**
 * Below the desktop breakpoint: the navigation and the language switch in a 260 px drawer (a Radix
 * dialog: focus trapped inside, Escape and the overlay close it). Loaded when first opened; the
 * button that opens it lives in the header (Header.tsx).
 */
export function NavDrawer({ open, onOpenChange, items, showLogin, triggerRef }: NavDrawerProps) {
  const { t } = useTranslation();
  const close = () => onOpenChange(false);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={css.overlay} />
        <Dialog.Content
          className={css.drawer}
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            triggerRef.current?.focus();
          }}
        >
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
