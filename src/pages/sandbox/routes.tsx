import { PageStub } from '../../components/PageStub.tsx';

export const SandboxPage = () => <PageStub titleKey="sandbox" />;
