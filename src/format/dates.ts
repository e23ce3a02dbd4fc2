import { format, isValid, parseISO, startOfWeek, type Locale } from 'date-fns';
import { sv } from 'date-fns/locale/sv';
import { enGB } from 'date-fns/locale/en-GB';

/**
 * Dates for people: always through date-fns, in Swedish (default) or English. Both locales start
 * the week on Monday, as in Sweden. Times arrive as ISO-8601 UTC and are shown in
 * Europe/Stockholm, whatever the device's own time zone.
 */

/** Monday. */
export const WEEK_STARTS_ON = 1 as const;

export const TIME_ZONE = 'Europe/Stockholm';

/** The range every date picker allows (inclusive), as yyyy-MM-dd for <input type="date"> min/max. */
export const MIN_DATE_INPUT = '1900-01-01';
export const MAX_DATE_INPUT = '2099-12-31';
/** The same range as local dates (the first and the last day, at midnight). */
export const MIN_DATE = new Date(1900, 0, 1);
export const MAX_DATE = new Date(2099, 11, 31);

export function dateLocale(language: string): Locale {
  return language === 'en' ? enGB : sv;
}

/**
 * Made on the first date shown, not when a page's code loads: the first `Intl.DateTimeFormat` with a
 * time zone loads ICU's zone data, 0.1–0.8 s of main thread in Chromium (×4 on Lighthouse's
 * phone), and most pages that import this module show no date on their first screen (decision 152).
 */
let stockholmParts: Intl.DateTimeFormat | undefined;

/** The wall-clock time in Stockholm at that instant, as a Date to hand to date-fns. */
export function inStockholm(instant: Date): Date {
  stockholmParts ??= new Intl.DateTimeFormat('en-US', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  });
  const parts = Object.fromEntries(stockholmParts.formatToParts(instant).map((p) => [p.type, p.value]));
  const n = (k: string) => Number(parts[k]);
  return new Date(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
}

function toDate(value: Date | string): Date {
  return typeof value === 'string' ? parseISO(value) : value;
}

/** "21 november 2026" / "21 November 2026" (a day, shown in Stockholm). */
export function formatDate(value: Date | string, language: string, pattern = 'd MMMM yyyy'): string {
  const d = toDate(value);
  if (!isValid(d)) return '';
  return format(inStockholm(d), pattern, { locale: dateLocale(language) });
}

/** "21 november 2026 14:05" (24-hour clock in both languages). */
export function formatDateTime(value: Date | string, language: string): string {
  return formatDate(value, language, 'd MMMM yyyy HH:mm');
}

/** The Monday of the week the date falls in. */
export function startOfWeekFor(date: Date, language: string): Date {
  return startOfWeek(date, { locale: dateLocale(language), weekStartsOn: WEEK_STARTS_ON });
}

/** Whether a date lies in the picker range 1900-01-01 … 2099-12-31 (inclusive, by calendar day). */
export function isInPickerRange(date: Date): boolean {
  if (!isValid(date)) return false;
  const day = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  return day >= MIN_DATE && day <= MAX_DATE;
}

/** Brings a date into the picker range: before 1900-01-01 becomes that day, after 2099-12-31 that day. */
export function clampToPickerRange(date: Date): Date {
  if (!isValid(date)) return new Date(MIN_DATE);
  const day = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  if (day < MIN_DATE) return new Date(MIN_DATE);
  if (day > MAX_DATE) return new Date(MAX_DATE);
  return date;
}

/**
 * Reads a yyyy-MM-dd value from a date input. Answers the local date, or null when it is not a
 * real date or lies outside the picker range.
 */
export function parsePickerValue(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = parseISO(value);
  if (!isValid(d) || format(d, 'yyyy-MM-dd') !== value) return null;
  return isInPickerRange(d) ? d : null;
}
