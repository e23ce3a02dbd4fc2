export { LandingPage } from './LandingPage.tsx';
export { StartPage } from './StartPage.tsx';
