export { VoucherListPage } from './VoucherListPage.tsx';
export { VoucherDetailsPage } from './VoucherDetailsPage.tsx';
