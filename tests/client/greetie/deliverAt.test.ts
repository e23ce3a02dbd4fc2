import { describe, expect, it } from 'vitest';
import { deliveryDays, deliveryProblem, stockholmToUtc, utcToStockholm } from '../../../src/pages/greetie/deliverAt.ts';

describe('delivery time (Stockholm shown, UTC on the wire)', () => {
  it('turns a Stockholm day and time into UTC, summer and winter', () => {
    expect(stockholmToUtc('2026-07-01', '12:00')).toBe('2026-07-01T10:00:00.000Z');
    expect(stockholmToUtc('2026-01-15', '08:30')).toBe('2026-01-15T07:30:00.000Z');
    expect(utcToStockholm('2026-07-01T10:00:00.000Z')).toEqual({ date: '2026-07-01', time: '12:00' });
  });

  it('refuses what is not a real day or time, or lies outside the picker range', () => {
    expect(stockholmToUtc('2026-02-30', '12:00')).toBeNull();
    expect(stockholmToUtc('2026-02-01', '25:00')).toBeNull();
    expect(stockholmToUtc('2100-01-01', '12:00')).toBeNull();
  });

  it('offers today to a year ahead, and says why another time cannot be used', () => {
    const now = new Date('2026-05-01T10:00:00.000Z');
    expect(deliveryDays(now)).toEqual({ min: '2026-05-01', max: '2027-05-01' });
    expect(deliveryProblem('2026-05-01T09:00:00.000Z', now)).toBe('past');
    expect(deliveryProblem('2027-06-01T09:00:00.000Z', now)).toBe('tooFar');
    expect(deliveryProblem('2026-05-02T09:00:00.000Z', now)).toBeNull();
    expect(deliveryProblem(null, now)).toBe('invalid');
  });

  it('keeps the picker inside 2099-12-31', () => {
    expect(deliveryDays(new Date('2099-06-01T10:00:00.000Z')).max).toBe('2099-12-31');
  });
});
