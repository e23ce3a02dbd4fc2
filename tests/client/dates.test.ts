import { describe, expect, it } from 'vitest';
import {
  clampToPickerRange,
  dateLocale,
  formatDate,
  formatDateTime,
  isInPickerRange,
  MAX_DATE,
  MAX_DATE_INPUT,
  MIN_DATE,
  MIN_DATE_INPUT,
  parsePickerValue,
  startOfWeekFor,
  WEEK_STARTS_ON,
} from '../../src/format/dates.ts';

describe('dates', () => {
  it('formats in Swedish by default style and in English', () => {
    expect(formatDate('2026-11-21T10:00:00Z', 'sv')).toBe('21 november 2026');
    expect(formatDate('2026-11-21T10:00:00Z', 'en')).toBe('21 November 2026');
  });

  it('shows times in Stockholm time (UTC+1 in winter, UTC+2 in summer)', () => {
    expect(formatDateTime('2026-01-15T23:30:00Z', 'sv')).toBe('16 januari 2026 00:30');
    expect(formatDateTime('2026-07-01T10:05:00Z', 'en')).toBe('1 July 2026 12:05');
  });

  it('answers an empty string for a value that is not a date', () => {
    expect(formatDate('not a date', 'sv')).toBe('');
  });

  it('starts the week on Monday in Swedish (and in English)', () => {
    expect(WEEK_STARTS_ON).toBe(1);
    expect(dateLocale('sv').options?.weekStartsOn).toBe(1);
    const sunday = new Date(2026, 10, 22);
    expect(startOfWeekFor(sunday, 'sv')).toEqual(new Date(2026, 10, 16));
    expect(startOfWeekFor(sunday, 'sv').getDay()).toBe(1);
    expect(startOfWeekFor(sunday, 'en').getDay()).toBe(1);
  });

  it('limits date pickers to 1900-01-01 … 2099-12-31', () => {
    expect(MIN_DATE_INPUT).toBe('1900-01-01');
    expect(MAX_DATE_INPUT).toBe('2099-12-31');
    expect(MIN_DATE).toEqual(new Date(1900, 0, 1));
    expect(MAX_DATE).toEqual(new Date(2099, 11, 31));
    expect(isInPickerRange(new Date(1900, 0, 1))).toBe(true);
    expect(isInPickerRange(new Date(2099, 11, 31, 23, 59))).toBe(true);
    expect(isInPickerRange(new Date(1899, 11, 31))).toBe(false);
    expect(isInPickerRange(new Date(2100, 0, 1))).toBe(false);
    expect(isInPickerRange(new Date(Number.NaN))).toBe(false);
  });

  it('clamps a date into the picker range', () => {
    expect(clampToPickerRange(new Date(1800, 5, 1))).toEqual(MIN_DATE);
    expect(clampToPickerRange(new Date(2200, 5, 1))).toEqual(MAX_DATE);
    const inside = new Date(2026, 10, 21);
    expect(clampToPickerRange(inside)).toEqual(inside);
  });

  it('reads a date input value only when it is a real date in range', () => {
    expect(parsePickerValue('2026-11-21')).toEqual(new Date(2026, 10, 21));
    expect(parsePickerValue('1900-01-01')).toEqual(MIN_DATE);
    expect(parsePickerValue('1899-12-31')).toBeNull();
    expect(parsePickerValue('2100-01-01')).toBeNull();
    expect(parsePickerValue('2026-02-30')).toBeNull();
    expect(parsePickerValue('21/11/2026')).toBeNull();
    expect(parsePickerValue('')).toBeNull();
  });
});
