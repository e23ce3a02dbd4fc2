import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every string exists in Swedish and in English: this walks every namespace file of every
 * language under locales/ and fails on any key (or namespace) that one language has and the
 * other lacks, and on empty strings.
 */
const root = resolve(__dirname, '../../locales');
const languages = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function emptyStrings(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [prefix] : [];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => emptyStrings(v, prefix ? `${prefix}.${k}` : k));
  }
  return [];
}

function load(lang: string): Record<string, unknown> {
  const dir = join(root, lang);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, f), 'utf8')) as unknown]),
  );
}

/** Interpolation variables ({{name}}) used by a string. */
function variables(s: unknown): string[] {
  return typeof s === 'string' ? [...s.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1]!).sort() : [];
}

describe('locales', () => {
  it('has Swedish and English', () => {
    expect(languages).toEqual(['en', 'sv']);
  });

  const all = Object.fromEntries(languages.map((l) => [l, load(l)]));

  it('has the same namespaces in every language', () => {
    const [first, ...rest] = languages;
    for (const lang of rest) {
      expect(Object.keys(all[lang]!).sort(), `namespaces of ${lang} vs ${first}`).toEqual(Object.keys(all[first!]!).sort());
    }
  });

  const namespaces = [...new Set(languages.flatMap((l) => Object.keys(all[l]!)))].sort();
  it.each(namespaces)('namespace %s has the same keys in every language', (ns) => {
    const byLang = languages.map((l) => ({ lang: l, keys: new Set(keys(all[l]![ns] ?? {})) }));
    const union = new Set(byLang.flatMap((b) => [...b.keys]));
    const missing = byLang.flatMap((b) => [...union].filter((k) => !b.keys.has(k)).map((k) => `${b.lang}/${ns}.json lacks ${k}`));
    expect(missing).toEqual([]);
  });

  it.each(namespaces)('namespace %s has no empty strings and the same {{variables}} in every language', (ns) => {
    for (const lang of languages) expect(emptyStrings(all[lang]![ns]), `${lang}/${ns}`).toEqual([]);
    const [first, ...rest] = languages;
    for (const key of keys(all[first!]![ns] ?? {})) {
      const get = (lang: string) => key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], all[lang]![ns]);
      for (const lang of rest) expect(variables(get(lang)), `${ns}:${key} in ${lang}`).toEqual(variables(get(first!)));
    }
  });
});
