import { PageStub } from '../../components/PageStub.tsx';

export const RedeemPage = () => <PageStub titleKey="redeem" />;
export const RedeemVoucherPage = () => <PageStub titleKey="redeemVoucher" />;
