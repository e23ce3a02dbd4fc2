export { MerchantListPage } from './MerchantListPage.tsx';
export { MerchantDetailsPage } from './MerchantDetailsPage.tsx';
