import { Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { LoadingScreen, RootLayout } from './layouts/RootLayout.tsx';
import { MainLayout } from './layouts/MainLayout.tsx';
import { PublicLayout } from './layouts/PublicLayout.tsx';
import { MinimalLayout } from './layouts/MinimalLayout.tsx';
import { RedirectIfAuthenticated, RequireAuth } from './guards.tsx';
import { loadNamespaces } from '../i18n.ts';
import { loadSession, loadVoucherStore } from './AppActors.tsx';
import type { PageHandle } from './layouts/pageKey.ts';
import { SIGNED_IN_HINT_KEY, liveAccessToken } from './storedSession.ts';

/**
 * The route table. Each route group (landing, auth, my, redeem, voucher, greetie, greetie/view, merchant,
 * sandbox, legal, errors) is one lazily loaded chunk: `lazy` imports the group's routes module and picks
 * the page. Layouts are small and load with the app.
 *
 * Guards: wrap a group of children in a pathless route with the guard as its element, e.g.
 *   { element: <RequireSession />, children: [ ...the signed-in routes ] }
 * tests/client/shell/routes.test.tsx checks that every page route stays lazy and that unknown
 * paths go to /404.
 *
 * A route group: its chunk (src/pages/<group>/routes.tsx), the locale namespaces its pages use
 * besides the frame's (src/i18n.ts bundles `common` and `legal`), whether its pages show the
 * voucher store, and whether they wait for the session's code (neither is in the first load:
 * src/app/AppActors.tsx; every group but the start page's waits for the session, whose code
 * main.tsx starts loading at once, so a page that signs in or reads the auth actor finds it). All
 * load side by side in the route's `lazy`, so a page renders with its strings, its store and the
 * session there (tests/client/shell/namespaces.test.ts keeps each list in step with the group's code).
 */
interface Group<M> {
  load: () => Promise<M>;
  namespaces: readonly string[];
  voucherStore: boolean;
  session: boolean;
}

const group = <M,>(load: () => Promise<M>, namespaces: string[] = [], { voucherStore = false, session = true } = {}): Group<M> => ({
  load,
  namespaces,
  voucherStore,
  session,
});

const page =
  <M extends Record<string, unknown>>(g: Group<M>, name: keyof M & string) =>
  async () => {
    const [m] = await Promise.all([
      g.load(),
      loadNamespaces(g.namespaces),
      g.voucherStore ? loadVoucherStore() : undefined,
      g.session ? loadSession() : undefined,
    ]);
    return { Component: m[name] as React.ComponentType };
  };

export const groups = {
  // The start page's first screen does not wait for the session's code (decision 011).
  landing: group(() => import('../pages/landing/routes.tsx'), ['landing'], { session: false }),
  auth: group(() => import('../pages/auth/routes.tsx'), ['auth']),
  my: group(() => import('../pages/my/routes.tsx'), ['my', 'notifications']),
  redeem: group(() => import('../pages/redeem/routes.tsx'), ['redeem', 'voucher'], { voucherStore: true }),
  voucher: group(() => import('../pages/voucher/routes.tsx'), ['voucher'], { voucherStore: true }),
  greetie: group(() => import('../pages/greetie/routes.tsx'), ['greetie', 'editor', 'payment']),
  // The greetie a recipient opens: its own chunk; its gifts come from the voucher store.
  // (A group of its own inside src/pages/greetie/, which it shares the editor's content layer with.)
  'greetie/view': group(() => import('../pages/greetie/view/routes.tsx'), ['view'], { voucherStore: true }),
  merchant: group(() => import('../pages/merchant/routes.tsx'), ['merchant']),
  // Till mode in the merchant portal: its own chunk inside src/pages/portal/ (the scanner loads only here).
  'portal/till': group(() => import('../pages/portal/till/routes.tsx'), ['redeem', 'till']),
  sandbox: group(() => import('../pages/sandbox/routes.tsx'), ['sandbox', 'merchant', 'payment']),
  flows: group(() => import('../pages/flows/routes.tsx'), ['flows']),
  // The merchant portal: the people who work for a merchant (src/pages/portal/).
  portal: group(() => import('../pages/portal/routes.tsx'), ['portal', 'voucher']),
  errors: group(() => import('../pages/errors/routes.tsx')),
  legal: group(() => import('../pages/legal/routes.tsx')),
};
const { landing, auth, my, redeem, voucher, greetie, 'greetie/view': view, merchant, sandbox, flows, portal, errors, legal } = groups;
const tillMode = groups['portal/till'];

/**
 * The greetie a link opens is read while the view's code loads, not after it (decision 132): the
 * route's loader starts GET /greetie/byRef side by side with the chunk, and the page's load takes
 * that answer. Only when who asks is already certain: a live access token in this tab (the read
 * carries it) or no sign-in in this browser (a visitor). A sign-in the refresh cookie may restore
 * waits for the session, as before: the read marks the greetie viewed unless its sender asks.
 */
function readGreetieEarly({ params, request }: LoaderFunctionArgs): null {
  if (!params.id || new URL(request.url).searchParams.get('byId') === 'true') return null;
  const refId = params.id;
  let token: string | null;
  try {
    token = liveAccessToken(sessionStorage, 30_000);
    if (!token && localStorage.getItem(SIGNED_IN_HINT_KEY) === '1') return null;
  } catch {
    // No storage (a locked-down browser): the page reads it itself.
    return null;
  }
  // The call's code (with the API client) is not in the first load; it comes beside the page's.
  import('../api/greetieView.ts').then(
    (m) => m.startByRefRead(refId, token),
    () => undefined,
  );
  return null;
}

/**
 * /flows asks whether the sandbox is on and loads the asked machine's generated chart, layout and
 * paths while the page's code loads, not after it (decisions 139, 142): src/pages/flows/early.ts, a small chunk.
 */
function startFlowsEarly({ request }: LoaderFunctionArgs): null {
  const machine = new URL(request.url).searchParams.get('machine');
  import('../pages/flows/early.ts').then(
    (m) => m.startFlows(machine),
    () => undefined,
  );
  return null;
}

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
          // One route for every step (/greetie/new/content…): the page stays, the step is the machine's.
          { path: 'greetie/new/:step?', handle: { onePage: true } satisfies PageHandle, lazy: page(greetie, 'GreetieNewPage') },
          { path: 'greetie/details/:id', lazy: page(greetie, 'GreetieDetailsPage') },
          { path: 'portal', lazy: page(portal, 'PortalIndexPage') },
          { path: 'portal/:merchantId', lazy: page(portal, 'PortalMerchantPage') },
          { path: 'portal/:merchantId/kassa', lazy: page(tillMode, 'TillModePage') },
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
          { path: 'flows', lazy: page(flows, 'FlowsPage'), loader: startFlowsEarly },
          // Köpvillkor and integritetspolicy: linked from the footer, the review step and the receipt;
          // tillgänglighetsredogörelse: linked from the footer.
          { path: 'villkor', lazy: page(legal, 'TermsPage') },
          { path: 'integritet', lazy: page(legal, 'PrivacyPage') },
          { path: 'tillganglighet', lazy: page(legal, 'AccessibilityPage') },
          { path: '404', lazy: page(errors, 'NotFoundPage') },
        ],
      },
      {
        // Layout 3: minimal (a top-left menu only), for the greetie a recipient opens.
        element: <MinimalLayout />,
        children: [{ path: 'greetie/view/:id', lazy: page(view, 'GreetieViewPage'), loader: readGreetieEarly, shouldRevalidate: () => false }],
      },
      { element: <RedirectIfAuthenticated />, children: [{ path: 'auth/jwt/login', lazy: page(auth, 'LoginPage') }] },
      // Anything else: /404, replacing the history entry.
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
];
