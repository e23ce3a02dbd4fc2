export { RedeemPage } from './RedeemPage.tsx';
export { RedeemVoucherPage } from './RedeemVoucherPage.tsx';
