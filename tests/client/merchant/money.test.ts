import { describe, expect, it } from 'vitest';
import { formatKr, formatKrRange, formatKronorNumber, formatProductPrice } from '../../../src/format/money.ts';

/** Exact strings, separators spelled out: U+00A0 no-break space, U+2013 en dash. */
const NBSP = '\u00a0';

describe('Swedish money formatting', () => {
  it('whole kronor have no decimals and a no-break space before kr', () => {
    expect(formatKr(14900)).toBe(`149${NBSP}kr`);
    expect(formatKr(0)).toBe(`0${NBSP}kr`);
    expect(formatKr(6500)).toBe(`65${NBSP}kr`);
  });

  it('thousands are grouped with a no-break space, as sv-SE Intl does', () => {
    expect(formatKr(100000)).toBe(`1${NBSP}000${NBSP}kr`);
    expect(formatKr(129500)).toBe(`1${NBSP}295${NBSP}kr`);
    expect(formatKr(1000000000)).toBe(`10${NBSP}000${NBSP}000${NBSP}kr`);
    expect(formatKr(100000)).toBe(new Intl.NumberFormat('sv-SE', { style: 'currency', currency: 'SEK', maximumFractionDigits: 0 }).format(1000));
  });

  it('öre show two decimals after a comma', () => {
    expect(formatKr(14950)).toBe(`149,50${NBSP}kr`);
    expect(formatKr(14901)).toBe(`149,01${NBSP}kr`);
    expect(formatKr(123456)).toBe(`1${NBSP}234,56${NBSP}kr`);
  });

  it('a range has an en dash without spaces and one kr at the end', () => {
    expect(formatKrRange(10000, 100000)).toBe(`100\u20131${NBSP}000${NBSP}kr`);
    // Looks like "100–1 000 kr", but never with a plain space that could break the line.
    expect(formatKrRange(10000, 100000).replace(/\u00a0/g, ' ')).toBe('100–1 000 kr');
    expect(formatKrRange(10000, 100000)).not.toContain(' ');
    expect(formatKrRange(5000, 500000)).toBe(`50\u20135${NBSP}000${NBSP}kr`);
    expect(formatKrRange(20000, 20000)).toBe(`200${NBSP}kr`);
  });

  it('a product shows its fixed price or its range', () => {
    expect(formatProductPrice({ price: 14900 })).toBe(`149${NBSP}kr`);
    expect(formatProductPrice({ minAmount: 10000, maxAmount: 100000 })).toBe(`100\u20131${NBSP}000${NBSP}kr`);
    expect(formatProductPrice({})).toBe('');
  });

  it('the number part alone, for sentences like "från 65 kr"', () => {
    expect(formatKronorNumber(250000)).toBe(`2${NBSP}500`);
    expect(formatKronorNumber(Number.NaN)).toBe('');
  });
});
