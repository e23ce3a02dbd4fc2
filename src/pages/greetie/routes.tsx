export { GreetieListPage } from './GreetieListPage.tsx';
export { GreetieNewPage } from './GreetieNewPage.tsx';
export { GreetieDetailsPage } from './GreetieDetailsPage.tsx';
