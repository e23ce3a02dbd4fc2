import { addDays, addMonths, format, isValid, parse, startOfMonth } from 'date-fns';
import { inStockholm } from '../../format/dates.ts';

/**
 * The portal's periods in Europe/Stockholm days (`2026-11-26`), as the API takes them: [from, to),
 * `to` being the day after the last. Today and this month are Stockholm's, whatever the device's
 * own time zone.
 */

export interface DayPeriod {
  from: string;
  to: string;
}

const day = (d: Date) => format(d, 'yyyy-MM-dd');

/** Today and this month in Stockholm at `now`. */
export function periodsAt(now: Date): { today: DayPeriod; month: DayPeriod } {
  const local = inStockholm(now);
  const month = startOfMonth(local);
  return {
    today: { from: day(local), to: day(addDays(local, 1)) },
    month: { from: day(month), to: day(addMonths(month, 1)) },
  };
}

/** A valid `yyyy-MM-dd` from a date input, or null. */
export function dayOrNull(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const d = parse(value, 'yyyy-MM-dd', new Date(2000, 0, 1));
  return isValid(d) ? value : null;
}

/** The day after a `yyyy-MM-dd`: the API's `to` for a last day that is included. */
export function dayAfter(value: string): string {
  return day(addDays(parse(value, 'yyyy-MM-dd', new Date(2000, 0, 1)), 1));
}

/** The day before a `yyyy-MM-dd` (the last day of a period whose `to` is `value`). */
export function dayBefore(value: string): string {
  return day(addDays(parse(value, 'yyyy-MM-dd', new Date(2000, 0, 1)), -1));
}
