/**
 * The version of the terms (/villkor) in force: the date they last changed. Recorded with every
 * payment whose buyer agreed to them (the withdrawal consent, decision 097); the legal pages show
 * it as their date. Change it whenever the terms change.
 */
export const TERMS_VERSION = '2026-11-27';
