/**
 * Money on screen: öre in, Swedish kronor out, the way Swedes write it — "149 kr", "149,50 kr",
 * "1 000 kr", a range "100–1 000 kr". sv-SE separates thousands with a no-break space (U+00A0) and
 * puts a no-break space before "kr", so an amount never breaks across lines; a range uses an en
 * dash without spaces. Whole kronor show no decimals; anything else shows two.
 */


const NBSP = '\u00a0';
const EN_DASH = '\u2013';
/** sv-SE's minus sign (U+2212), as Intl writes it. */
const MINUS = '\u2212';

/**
 * The number part only: 100000 öre → "1 000", 14950 → "149,50". Written out rather than through
 * `Intl.NumberFormat('sv-SE')`, whose first construction loads ICU's number data: 30–450 ms of main
 * thread in Chromium, ×4 on Lighthouse's phone, in the catalogue's and the greetie view's first
 * render (decision 152). The output is the same string (tests/client/merchant/money.test.ts
 * compares it with Intl's).
 */
export function formatKronorNumber(ore: number): string {
  if (!Number.isFinite(ore)) return '';
  const cents = Math.round(Math.abs(ore));
  const kronor = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
  const rest = cents % 100;
  const sign = ore < 0 && cents !== 0 ? MINUS : '';
  return `${sign}${kronor}${rest === 0 ? '' : `,${String(rest).padStart(2, '0')}`}`;
}

/** 14900 → "149 kr". */
export function formatKr(ore: number): string {
  return `${formatKronorNumber(ore)}${NBSP}kr`;
}

/** 10000, 100000 → "100–1 000 kr"; the same amount twice is just that amount. */
export function formatKrRange(minOre: number, maxOre: number): string {
  if (minOre === maxOre) return formatKr(minOre);
  return `${formatKronorNumber(minOre)}${EN_DASH}${formatKronorNumber(maxOre)}${NBSP}kr`;
}

/** A product's price: its fixed price, or the range a giver may choose from. */
export function formatProductPrice(p: { price?: number; minAmount?: number; maxAmount?: number }): string {
  if (typeof p.price === 'number') return formatKr(p.price);
  if (typeof p.minAmount === 'number' && typeof p.maxAmount === 'number') return formatKrRange(p.minAmount, p.maxAmount);
  return '';
}
