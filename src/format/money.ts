/**
 * Money on screen: öre in, Swedish kronor out, the way Swedes write it — "149 kr", "149,50 kr",
 * "1 000 kr", a range "100–1 000 kr". sv-SE separates thousands with a no-break space (U+00A0) and
 * puts a no-break space before "kr", so an amount never breaks across lines; a range uses an en
 * dash without spaces. Whole kronor show no decimals; anything else shows two.
 */

const whole = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 0, maximumFractionDigits: 0 });
const withOre = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const NBSP = '\u00a0';
const EN_DASH = '\u2013';

/** The number part only: 100000 öre → "1 000", 14950 → "149,50". */
export function formatKronorNumber(ore: number): string {
  if (!Number.isFinite(ore)) return '';
  return ore % 100 === 0 ? whole.format(ore / 100) : withOre.format(ore / 100);
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
