import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS, parseConfig } from '../../../server/config.ts';
import { durationList, durationOrOff, flag, oneOf, settingsReader, settingsSchema, whole } from '../../../server/settings.ts';

const root = path.join(import.meta.dirname, '../../..');

/**
 * README.md's settings table as name → default column. A row naming several settings ("`A`, `B`")
 * gives each its part of "x, y" when the counts match, else the whole column.
 */
function readmeSettings(): Map<string, string> {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Settings (environment)'));
  const table = section.slice(0, section.indexOf('\n## '));
  const rows = new Map<string, string>();
  for (const line of table.split('\n').filter((l) => l.startsWith('| `'))) {
    const [, first, second] = line.split(' | ').length > 2 ? line.split('|') : [];
    const names = [...first!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
    const shown = second!.trim().replace(/`/g, '');
    const parts = shown.split(', ');
    names.forEach((name, i) => rows.set(name, parts.length === names.length ? parts[i]! : shown));
  }
  return rows;
}

describe('settings declared once', () => {
  it('lists in the README table exactly the settings the server declares', () => {
    expect([...readmeSettings().keys()].sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it('shows in the README the default each setting declares', () => {
    const readme = readmeSettings();
    for (const [name, s] of Object.entries(SETTINGS)) expect(readme.get(name), name).toBe(s.shown);
  });

  it('describes every setting, and gives the schema its description and default', () => {
    const schema = settingsSchema(SETTINGS) as { properties: Record<string, { description?: string; default?: unknown }> };
    for (const [name, s] of Object.entries(SETTINGS)) {
      expect(s.description, name).not.toBe('');
      expect(s.shown, name).not.toBe('');
      expect(schema.properties[name], name).toBeDefined();
    }
    expect(schema.properties.DATABASE_POOL_SIZE).toMatchObject({ default: 10, minimum: 1, maximum: 200 });
  });

  it('reads an unset or empty variable as the default, and reports a wrong one in one line, falling back', () => {
    const declared = { N: whole({ min: 1, max: 5, default: 2, description: 'n' }), F: flag({ description: 'f' }), W: oneOf(['a', 'b', 'c'], { description: 'w' }) };
    const errors: string[] = [];
    const read = settingsReader(declared, { N: '', F: 'YES', W: 'd' }, errors);
    expect([read('N'), read('F'), read('W')]).toEqual([2, true, undefined]);
    expect(errors).toEqual(['W must be one of a, b, c (got "d")']);
    const bad = settingsReader(declared, { N: '9', F: 'sometimes' }, errors);
    expect([bad('N'), bad('F')]).toEqual([2, undefined]);
    expect(errors.slice(1)).toEqual(['N must be a whole number from 1 to 5 (got "9")', 'F must be "on" or "off" (got "sometimes")']);
  });

  it('reads ISO-8601 durations (iso8601-duration), one or "off", or a list shortest first', () => {
    const declared = { D: durationOrOff({ default: 'P3D', description: 'd' }), L: durationList({ default: 'P1D,P1W', description: 'l' }) };
    const at = (name: 'D' | 'L', v: string) => {
      const errors: string[] = [];
      const value = settingsReader(declared, { [name]: v }, errors)(name);
      return errors.length > 0 ? errors : value;
    };
    expect(at('D', '')).toMatchObject({ iso: 'P3D', parts: { days: 3 } });
    expect(at('D', ' pt12h ')).toMatchObject({ iso: 'PT12H', parts: { hours: 12 } });
    expect(at('D', 'P1M2DT3H')).toMatchObject({ parts: { months: 1, days: 2, hours: 3 } });
    expect(at('D', 'off')).toBeNull();
    for (const bad of ['3d', 'P', 'PT', 'P0D', '-P1D', 'P3DX']) {
      expect(at('D', bad), bad).toEqual([`D must be an ISO-8601 duration longer than zero (e.g. "P3D"), or "off" (got "${bad}")`]);
    }
    expect((at('L', '') as { iso: string }[]).map((d) => d.iso)).toEqual(['P1D', 'P1W']);
    expect(at('L', 'OFF')).toEqual([]);
    for (const bad of ['P1W,P1D', 'P1D,P1D', 'P1D,,P2D']) expect(at('L', bad), bad).toHaveLength(1);
    expect([declared.D.shown, declared.L.shown]).toEqual(['P3D', 'P1D,P1W']);
  });

  it('keeps a setting that is never read unchecked (Swish, while payments are in the sandbox)', () => {
    expect(parseConfig({ SWISH_BASE_URL: 'http://not-https' }).ok).toBe(true);
    const r = parseConfig({ PAYMENT_PROVIDER: 'swish', SWISH_BASE_URL: 'http://not-https' });
    expect(r.ok ? [] : r.errors).toContain('SWISH_BASE_URL must be an https:// URL (Swish production or MSS, its test environment)');
  });
});
