import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useSession } from '../../components/session.ts';
import { useUnreadCount } from '../../components/unread.ts';
import { visuallyHidden } from '../../components/ui.css.ts';
import * as css from './shell.css.ts';

/** The first letter of the name, upper case; empty when there is no name. */
export function initialOf(name: string | null | undefined): string {
  const first = name?.trim().match(/\p{L}|\p{N}/u)?.[0] ?? '';
  return first.toLocaleUpperCase('sv');
}

function PersonIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="8" r="4" fill="currentColor" />
      <path d="M4 20c0-4.4 3.6-7 8-7s8 2.6 8 7" fill="currentColor" />
    </svg>
  );
}

/**
 * The signed-in user's menu (200 px wide), opened by the avatar button labelled 'Konto'. Shows the
 * name, or the mobile number when there is no name; 'Hem' goes to '/', 'Mina sidor' to
 * /my/profile, 'Notiser' (with the unread count) to /my/notifications, 'För handlare' (for a person who works for a merchant) to /portal, 'Logga ut' signs out. The name is also shown beside the avatar; on a wide
 * screen the two fill the session's place in the header, the name cut short to fit (decision 158).
 */
export function AccountMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user, signOut } = useSession();
  const unread = useUnreadCount(Boolean(user));
  if (!user) return null;
  const initial = initialOf(user.name);
  const name = user.name?.trim();
  return (
    <span className={css.account}>
      {name && (
        <span className={css.accountName} title={name} data-testid="header-user-name">
          {name}
        </span>
      )}
      <DropdownMenu.Root modal={false}>
        {/* The unread badge sits beside the button, over its corner, not inside it: inside, its
            number joined the initial as the button's visible text ("A3"), which the spoken name
            "Konto, 3 olästa" does not contain (WCAG 2.5.3, axe label-content-name-mismatch). */}
        <span className={css.avatarWrap}>
          <DropdownMenu.Trigger
            className={css.avatar}
            aria-label={unread > 0 ? `${t('account.label')}, ${t('avatarUnread', { ns: 'notifications', count: unread })}` : t('account.label')}
          >
            {initial ? <span aria-hidden="true">{initial}</span> : <PersonIcon />}
          </DropdownMenu.Trigger>
          {unread > 0 && (
            <span className={css.unreadBadge} aria-hidden="true" data-testid="unread-badge">
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </span>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className={css.menu} align="end" sideOffset={8}>
            <DropdownMenu.Label className={css.menuLabel}>{user.name?.trim() || user.mobileNumber}</DropdownMenu.Label>
            <DropdownMenu.Separator className={css.menuSeparator} />
            <DropdownMenu.Item className={css.menuItem} asChild>
              <Link to="/">{t('account.home')}</Link>
            </DropdownMenu.Item>
            <DropdownMenu.Item className={css.menuItem} asChild>
              <Link to="/my/profile">{t('menu.myPages', { ns: 'my' })}</Link>
            </DropdownMenu.Item>
            {/* The notifications with their unread count: what the avatar's badge counts, one tap away. */}
            <DropdownMenu.Item className={css.menuItem} asChild>
              <Link to="/my/notifications" data-testid="menu-notifications">
                {t('title', { ns: 'notifications' })}
                {unread > 0 && (
                  <>
                    <span className={css.menuCount} aria-hidden="true">
                      {unread > 99 ? '99+' : unread}
                    </span>
                    <span className={visuallyHidden}>, {t('avatarUnread', { ns: 'notifications', count: unread })}</span>
                  </>
                )}
              </Link>
            </DropdownMenu.Item>
            {(user.merchants?.length ?? 0) > 0 && (
              <DropdownMenu.Item className={css.menuItem} asChild>
                <Link to="/portal">{t('account.merchants')}</Link>
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item
              className={css.menuItem}
              onSelect={() => {
                signOut();
                void navigate('/');
              }}
            >
              {t('account.signOut')}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </span>
  );
}
