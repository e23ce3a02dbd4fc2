export { PrivacyPage, TermsPage } from './LegalPage.tsx';
