import { Outlet } from 'react-router-dom';

/** Layout 1: signed-in areas (greetie, voucher, redeem, my). */
export function MainLayout() {
  return (
    <main id="main">
      <Outlet />
    </main>
  );
}
