import { PageStub } from '../../components/PageStub.tsx';

export const MerchantListPage = () => <PageStub titleKey="merchants" />;
export const MerchantDetailsPage = () => <PageStub titleKey="merchantDetails" />;
