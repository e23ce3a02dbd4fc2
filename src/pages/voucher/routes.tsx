import { PageStub } from '../../components/PageStub.tsx';

export const VoucherListPage = () => <PageStub titleKey="vouchers" />;
export const VoucherDetailsPage = () => <PageStub titleKey="voucher" />;
