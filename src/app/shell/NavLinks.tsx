import { NavLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { NavItem } from './navItems.ts';
import * as css from './shell.css.ts';

export function NavLinks({ items, vertical, onNavigate }: { items: NavItem[]; vertical?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <ul className={vertical ? css.navListVertical : css.navList}>
      {items.map((item) => (
        <li key={item.labelKey}>
          {item.kind === 'route' ? (
            <NavLink to={item.to} className={css.navLink} onClick={onNavigate}>
              {t(item.labelKey)}
            </NavLink>
          ) : (
            <a href={item.href} className={css.navLink} rel="noopener" onClick={onNavigate}>
              {t(item.labelKey)}
            </a>
          )}
        </li>
      ))}
    </ul>
  );
}
