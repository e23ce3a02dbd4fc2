import { PageStub } from '../../components/PageStub.tsx';

export const MyPage = () => <PageStub titleKey="my" />;
