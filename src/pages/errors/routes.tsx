export { NotFoundPage } from '../../components/NotFoundPage.tsx';
