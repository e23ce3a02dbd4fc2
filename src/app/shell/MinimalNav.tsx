import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useSession } from '../../components/session.ts';
import { MenuIcon } from './icons.tsx';
import { loginPathFor } from '../guards.tsx';
import * as css from './shell.css.ts';
import { switchLanguage } from './switchLanguage.ts';

/**
 * Layout 3's only chrome: a navigation menu in the top-left corner. A signed-in user gets their
 * own pages and 'Logga ut'; a visitor gets the home page, merchants and 'Logga in', which comes
 * back to the greetie once signed in. Both can switch language here.
 */
export function MinimalNav() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const signedIn = session.status === 'authenticated' && session.user !== null;
  const links = signedIn
    ? [
        { to: '/', label: t('account.home') },
        { to: '/greetie', label: t('nav.greeties') },
        { to: '/voucher', label: t('nav.vouchers') },
      ]
    : [
        { to: '/', label: t('account.home') },
        { to: '/merchant', label: t('nav.merchants') },
        { to: loginPathFor(`${location.pathname}${location.search}`), label: t('nav.login') },
      ];
  const otherLanguage = i18n.language === 'en' ? 'sv' : 'en';

  return (
    <nav aria-label={t('nav.label')} className={css.minimalBar}>
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger className={css.minimalTrigger} aria-label={t('nav.menu')}>
          <MenuIcon />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={css.menu} align="start" sideOffset={8}>
            {links.map((l) => (
              <DropdownMenu.Item key={l.to} className={css.menuItem} asChild>
                <Link to={l.to}>{l.label}</Link>
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Separator className={css.menuSeparator} />
            <DropdownMenu.Item
              className={css.menuItem}
              lang={otherLanguage}
              onSelect={() => void switchLanguage(i18n, otherLanguage)}
            >
              {t('language.switchTo')}
            </DropdownMenu.Item>
            {signedIn && (
              <DropdownMenu.Item
                className={css.menuItem}
                onSelect={() => {
                  session.signOut();
                  void navigate('/');
                }}
              >
                {t('account.signOut')}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </nav>
  );
}
