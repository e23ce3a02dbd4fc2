import { Navigate, type RouteObject } from 'react-router-dom';
import { LoadingScreen, RootLayout } from './layouts/RootLayout.tsx';
import { MainLayout } from './layouts/MainLayout.tsx';
import { PublicLayout } from './layouts/PublicLayout.tsx';
import { MinimalLayout } from './layouts/MinimalLayout.tsx';
import { RedirectIfAuthenticated, RequireAuth } from './guards.tsx';

/**
 * The route table. Each route group (landing, auth, my, redeem, voucher, greetie, merchant,
 * sandbox, legal, errors) is one lazily loaded chunk: `lazy` imports the group's routes module and picks
 * the page. Layouts are small and load with the app.
 *
 * Guards: wrap a group of children in a pathless route with the guard as its element, e.g.
 *   { element: <RequireSession />, children: [ ...the signed-in routes ] }
 * tests/client/shell/routes.test.tsx checks that every page route stays lazy and that unknown
 * paths go to /404.
 */
const page =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) =>
  async () => {
    const m = await load();
    return { Component: m[name] as React.ComponentType };
  };

const landing = () => import('../pages/landing/routes.tsx');
const auth = () => import('../pages/auth/routes.tsx');
const my = () => import('../pages/my/routes.tsx');
const redeem = () => import('../pages/redeem/routes.tsx');
const voucher = () => import('../pages/voucher/routes.tsx');
const greetie = () => import('../pages/greetie/routes.tsx');
const merchant = () => import('../pages/merchant/routes.tsx');
const sandbox = () => import('../pages/sandbox/routes.tsx');
const flows = () => import('../pages/flows/routes.tsx');
const errors = () => import('../pages/errors/routes.tsx');
const legal = () => import('../pages/legal/routes.tsx');

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: LoadingScreen,
    children: [
      {
        // Layout 1: the user's areas (its header shows a visitor only the user entries). Signed-in only.
        element: <RequireAuth><MainLayout /></RequireAuth>,
        children: [
          { path: 'my/profile', lazy: page(my, 'MyProfilePage') },
          { path: 'my/settings', lazy: page(my, 'MySettingsPage') },
          { path: 'my/notifications', lazy: page(my, 'MyNotificationsPage') },
          { path: 'my/account', lazy: page(my, 'MyAccountPage') },
          { path: 'my/:section', lazy: page(my, 'MyPage') },
          { path: 'redeem', lazy: page(redeem, 'RedeemPage') },
          { path: 'redeem/voucher/:id', lazy: page(redeem, 'RedeemVoucherPage') },
          { path: 'redeem/:id', lazy: page(redeem, 'RedeemPage') },
          { path: 'voucher', lazy: page(voucher, 'VoucherListPage') },
          { path: 'voucher/list', lazy: page(voucher, 'VoucherListPage') },
          { path: 'voucher/:id', lazy: page(voucher, 'VoucherDetailsPage') },
          { path: 'greetie', lazy: page(greetie, 'GreetieListPage') },
          { path: 'greetie/list', lazy: page(greetie, 'GreetieListPage') },
          { path: 'greetie/new', lazy: page(greetie, 'GreetieNewPage') },
          { path: 'greetie/details/:id', lazy: page(greetie, 'GreetieDetailsPage') },
        ],
      },
      {
        // Layout 2: public pages, full header.
        element: <PublicLayout />,
        children: [
          { index: true, lazy: page(landing, 'LandingPage') },
          { path: 'start', lazy: page(landing, 'StartPage') },
          { path: 'merchant', lazy: page(merchant, 'MerchantListPage') },
          { path: 'merchant/list', lazy: page(merchant, 'MerchantListPage') },
          { path: 'merchant/details/:id', lazy: page(merchant, 'MerchantDetailsPage') },
          { path: 'sandbox', lazy: page(sandbox, 'SandboxPage') },
          // The flow viewer (machines as diagrams, coverage, live); it shows a 404 unless GET /api/sandbox answers 200.
          { path: 'flows', lazy: page(flows, 'FlowsPage') },
          // Köpvillkor and integritetspolicy (issue 13): linked from the footer, the review step and the receipt.
          { path: 'villkor', lazy: page(legal, 'TermsPage') },
          { path: 'integritet', lazy: page(legal, 'PrivacyPage') },
          { path: '404', lazy: page(errors, 'NotFoundPage') },
        ],
      },
      {
        // Layout 3: minimal (a top-left menu only), for the greetie a recipient opens.
        element: <MinimalLayout />,
        children: [{ path: 'greetie/view/:id', lazy: page(greetie, 'GreetieViewPage') }],
      },
      { element: <RedirectIfAuthenticated />, children: [{ path: 'auth/jwt/login', lazy: page(auth, 'LoginPage') }] },
      // Anything else: /404, replacing the history entry.
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
