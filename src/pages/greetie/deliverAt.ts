import { addDays, format } from 'date-fns';
import { DELIVER_AT_MAX_DAYS } from '../../../contract/greetie.ts';
import { MAX_DATE_INPUT, MIN_DATE_INPUT, inStockholm, parsePickerValue } from '../../format/dates.ts';

/**
 * The delivery time as a person picks it: a day and a time on the Stockholm clock, whatever the
 * device's own zone; on the wire, UTC. A delivery lies between now and a year ahead, and the
 * picker never leaves 1900-01-01..2099-12-31.
 */

const wallAsUtc = (instant: number) => {
  const w = inStockholm(new Date(instant));
  return Date.UTC(w.getFullYear(), w.getMonth(), w.getDate(), w.getHours(), w.getMinutes(), w.getSeconds());
};

/** 'yyyy-MM-dd' + 'HH:mm' in Stockholm → ISO-8601 UTC; null when either is not a real value. */
export function stockholmToUtc(date: string, time: string): string | null {
  const day = parsePickerValue(date);
  const t = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (!day || !t) return null;
  const guess = Date.UTC(day.getFullYear(), day.getMonth(), day.getDate(), Number(t[1]), Number(t[2]));
  // The zone's offset at that moment (checked twice: the first guess may sit across a DST change).
  let instant = guess - (wallAsUtc(guess) - guess);
  instant = guess - (wallAsUtc(instant) - instant);
  return new Date(instant).toISOString();
}

/** ISO-8601 UTC → the day and time the Stockholm clock shows. */
export function utcToStockholm(iso: string): { date: string; time: string } {
  const w = inStockholm(new Date(iso));
  return { date: format(w, 'yyyy-MM-dd'), time: format(w, 'HH:mm') };
}

const clampInput = (value: string) => (value < MIN_DATE_INPUT ? MIN_DATE_INPUT : value > MAX_DATE_INPUT ? MAX_DATE_INPUT : value);

/** The days the picker offers: from today to a year ahead (Stockholm), inside the picker's range. */
export function deliveryDays(now: Date): { min: string; max: string } {
  const today = inStockholm(now);
  return { min: clampInput(format(today, 'yyyy-MM-dd')), max: clampInput(format(addDays(today, DELIVER_AT_MAX_DAYS), 'yyyy-MM-dd')) };
}

export type DeliveryProblem = 'invalid' | 'past' | 'tooFar';

/** Why a picked time cannot be used, or null when it can. */
export function deliveryProblem(iso: string | null, now: Date): DeliveryProblem | null {
  if (!iso) return 'invalid';
  const at = Date.parse(iso);
  if (at <= now.getTime()) return 'past';
  if (at > addDays(now, DELIVER_AT_MAX_DAYS).getTime()) return 'tooFar';
  return null;
}
