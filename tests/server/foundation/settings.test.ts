import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS, parseConfig } from '../../../server/config.ts';
import { duration, flag, isoDuration, oneOf, settingsReader, settingsSchema, whole } from '../../../server/settings.ts';

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

  it('reads ISO-8601 durations (for the settings still to come) as milliseconds', () => {
    const declared = { D: duration({ default: 3 * 86_400_000, description: 'd' }) };
    const at = (v: string) => {
      const errors: string[] = [];
      const value = settingsReader(declared, { D: v }, errors)('D');
      return errors.length > 0 ? errors : value;
    };
    expect(at('')).toBe(3 * 86_400_000);
    expect(at('PT12H')).toBe(12 * 3_600_000);
    expect(at('P1DT6H30M')).toBe((30 * 60 + 30) * 60_000);
    expect(at('P2W')).toBe(14 * 86_400_000);
    expect(at('pt90s')).toBe(90_000);
    for (const bad of ['3d', 'P', 'PT', 'P1M2W', 'P0D', 'P1Y', '-P1D']) {
      expect(at(bad), bad).toEqual([`D must be an ISO-8601 duration such as P3D or PT12H (got "${bad}")`]);
    }
    expect(declared.D.shown).toBe('P3D');
    expect(isoDuration(36 * 3_600_000 + 60_000)).toBe('P1DT12H1M');
  });

  it('keeps a setting that is never read unchecked (Swish, while payments are in the sandbox)', () => {
    expect(parseConfig({ SWISH_BASE_URL: 'http://not-https' }).ok).toBe(true);
    const r = parseConfig({ PAYMENT_PROVIDER: 'swish', SWISH_BASE_URL: 'http://not-https' });
    expect(r.ok ? [] : r.errors).toContain('SWISH_BASE_URL must be an https:// URL (Swish production or MSS, its test environment)');
  });
});
