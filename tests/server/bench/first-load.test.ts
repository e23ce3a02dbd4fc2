import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECISION_FILE, INITIAL, firstLoadGrowth, readBaseline } from '../../../bench/first-load.ts';
import { ROUTES } from '../../../bench/frontend.ts';

/**
 * The bench fails when a route group's first load grows by more than 5 KiB without a line in
 * decision 011 saying why (issue 28; bench/first-load.ts). These check the rule itself and that
 * the agreed figures cover every route the bench reports.
 */
describe('first-load growth', () => {
  const baseline = { note: 'test', kib: { [INITIAL]: 140, '/': 142, '/merchant': 150 } };
  const decision = '# 011\n\n## Growth allowed\n- `/merchant`: the map link (+6 KiB), asked for in issue 27.\n\n## Other\n- `/`: not here\n';

  it('passes growth up to 5 KiB and a smaller load', () => {
    const g = firstLoadGrowth({ [INITIAL]: 145, '/': 130 }, baseline, '');
    expect(g.map((x) => [x.route, x.grew, x.pass])).toEqual([
      [INITIAL, 5, true],
      ['/', -12, true],
    ]);
  });

  it('fails growth over 5 KiB unless decision 011 has a line for that route under "Growth allowed"', () => {
    const g = firstLoadGrowth({ '/': 147.1, '/merchant': 156.1 }, baseline, decision);
    expect(g.find((x) => x.route === '/')).toMatchObject({ grew: 5.1, pass: false, allowedBy: undefined });
    expect(g.find((x) => x.route === '/merchant')).toMatchObject({ grew: 6.1, pass: true });
    expect(g.find((x) => x.route === '/merchant')!.allowedBy).toContain('the map link');
  });

  it('has agreed figures for the initial load and every route the bench reports', () => {
    const kib = readBaseline().kib;
    expect(Object.keys(kib).sort()).toEqual([INITIAL, ...ROUTES.map(([r]) => r)].sort());
    expect(readFileSync(DECISION_FILE, 'utf8')).toMatch(/^#+ Growth allowed/m);
  });
});
