import { Outlet } from 'react-router-dom';

/** Layout 3: only a top-left navigation menu; holds the greetie a recipient opens. */
export function MinimalLayout() {
  return (
    <main id="main">
      <Outlet />
    </main>
  );
}
