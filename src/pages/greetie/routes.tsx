import { PageStub } from '../../components/PageStub.tsx';

export { GreetieListPage } from './GreetieListPage.tsx';
export { GreetieNewPage } from './GreetieNewPage.tsx';
export { GreetieDetailsPage } from './GreetieDetailsPage.tsx';
export const GreetieViewPage = () => <PageStub titleKey="greetieView" />;
