export { NotFoundPage } from './NotFoundPage.tsx';
