import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chartTitle, missingLabels, stateLabel, type ChartLabels } from '../../charts/labels.ts';
import { charts } from './machines.ts';

/**
 * Every machine has a title and every state a short label in Swedish and English
 * (locales/<lang>/flows.json, charts.<machine>.title and charts.<machine>.states.<state path>).
 * A machine that lands without them is still drawn, under readable code names, and this lists
 * what to add.
 */
const labels = (lang: string) => (JSON.parse(readFileSync(join(process.cwd(), 'locales', lang, 'flows.json'), 'utf8')) as { charts?: ChartLabels }).charts;

describe('chart labels', () => {
  it.each(['sv', 'en'])('every machine and state has a %s label', (lang) => {
    expect(missingLabels(labels(lang), charts), `add these to locales/${lang}/flows.json under charts`).toEqual([]);
  });

  it('falls back to a readable form of the code name', () => {
    const chart = { id: 'tillMode', root: 'tillMode' };
    expect(chartTitle(undefined, chart)).toBe('Till mode');
    expect(stateLabel({}, chart, { id: 'tillMode.handingOver', key: 'handingOver' })).toBe('Handing over');
    expect(stateLabel({ tillMode: { states: { handingOver: 'Till betalning' } } }, chart, { id: 'tillMode.handingOver', key: 'handingOver' })).toBe('Till betalning');
    expect(missingLabels({}, [{ id: 'tillMode', root: 'tillMode', states: [{ id: 'tillMode' }, { id: 'tillMode.a.b' }] } as never])).toEqual(['tillMode', 'tillMode: a.b']);
  });
});
