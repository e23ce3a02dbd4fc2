/**
 * Where the legal pages live: the terms, the privacy policy and the accessibility statement. A
 * module of its own so the footer, in every page's first load, links them without the seller's
 * loader (./seller.ts re-exports them for the pages that show the seller too; decision 011).
 */
export const TERMS_PATH = '/villkor';
export const PRIVACY_PATH = '/integritet';
export const ACCESSIBILITY_PATH = '/tillganglighet';
