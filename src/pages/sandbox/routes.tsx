export { SandboxPage } from './SandboxPage.tsx';
