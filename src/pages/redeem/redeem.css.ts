// The till's styles live in shared code: till mode in the merchant portal shows the same screens.
export * from '../../components/till/till.css.ts';
