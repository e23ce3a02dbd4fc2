export { FlowsPage } from './FlowsPage.tsx';
