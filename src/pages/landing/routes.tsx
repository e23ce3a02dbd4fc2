import { PageStub } from '../../components/PageStub.tsx';

export const LandingPage = () => <PageStub titleKey="landing" />;
export const StartPage = () => <PageStub titleKey="start" />;
