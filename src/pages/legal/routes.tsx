export { AccessibilityPage, PrivacyPage, TermsPage } from './LegalPage.tsx';
