import { PageStub } from '../../components/PageStub.tsx';

export const GreetieListPage = () => <PageStub titleKey="greeties" />;
export const GreetieNewPage = () => <PageStub titleKey="greetieNew" />;
export const GreetieDetailsPage = () => <PageStub titleKey="greetieDetails" />;
export const GreetieViewPage = () => <PageStub titleKey="greetieView" />;
