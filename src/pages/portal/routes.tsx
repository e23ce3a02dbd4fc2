export { PortalIndexPage } from './PortalIndexPage.tsx';
export { PortalMerchantPage } from './PortalMerchantPage.tsx';
