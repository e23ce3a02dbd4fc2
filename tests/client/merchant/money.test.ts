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

describe('the written-out formatter (decision 152: no Intl.NumberFormat on the first screens)', () => {
  const whole = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 0, maximumFractionDigits: 0 });
  const withOre = new Intl.NumberFormat('sv-SE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const intl = (ore: number) => (ore % 100 === 0 ? whole.format(ore / 100) : withOre.format(ore / 100));

  it('writes exactly what sv-SE Intl writes, from 0 öre to a billion kronor, negative too', () => {
    const amounts = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 9999, 10000, 99999, 100000, 100001, 123456, 999999, 1000000, 12345678, 100000000000, -1, -100, -123456];
    for (let i = 0; i < 2000; i++) amounts.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))));
    for (const ore of amounts) expect(formatKronorNumber(ore), String(ore)).toBe(intl(ore));
  });
});
