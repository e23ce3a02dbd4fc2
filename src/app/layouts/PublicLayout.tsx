import { Outlet } from 'react-router-dom';

/** Layout 2: public pages (merchants, 404, landing). */
export function PublicLayout() {
  return (
    <main id="main">
      <Outlet />
    </main>
  );
}
