import { PageStub } from '../../components/PageStub.tsx';

export const LoginPage = () => <PageStub titleKey="login" />;
