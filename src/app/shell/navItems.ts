import { settings } from '../../settings.ts';

/** What the header (and its drawer) offers, by who is looking and the header variant. */
export type HeaderVariant = 'public' | 'user';

export type NavItem =
  | { kind: 'route'; to: string; labelKey: string }
  | { kind: 'external'; href: string; labelKey: string };

export const userNavItems: NavItem[] = [
  { kind: 'route', to: '/greetie', labelKey: 'nav.greeties' },
  { kind: 'route', to: '/voucher', labelKey: 'nav.vouchers' },
];

export function visitorNavItems(): NavItem[] {
  return [
    { kind: 'route', to: '/merchant', labelKey: 'nav.merchants' },
    { kind: 'external', href: settings.howItWorksUrl, labelKey: 'nav.howItWorks' },
    { kind: 'external', href: settings.aboutUrl, labelKey: 'nav.about' },
  ];
}

/**
 * Signed in: the user's entries. A visitor: merchants and the two external links, except in the
 * 'user' variant (layout 1), which shows a visitor only the user entries.
 */
export function navItemsFor(signedIn: boolean, variant: HeaderVariant): NavItem[] {
  if (signedIn || variant === 'user') return userNavItems;
  return visitorNavItems();
}

/** The 'Logga in' button shows for a visitor in the public variant. */
export function showsLogin(signedIn: boolean, variant: HeaderVariant): boolean {
  return !signedIn && variant === 'public';
}

export const loginPath = '/auth/jwt/login';
