import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vars } from '../../styles/theme.css.ts';

const root = resolve(__dirname, '../..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? files(p, ext) : ext.test(name) ? [p] : [];
  });
}

describe('theme', () => {
  it('uses primary #ED5AA4 and a base radius of 8', () => {
    const theme = read('styles/theme.css.ts');
    expect(theme).toMatch(/primary: '#ED5AA4'/);
    expect(theme).toMatch(/base: '8px'/);
    expect(vars.radius.base).toMatch(/^var\(--/);
  });

  it('is light only and left to right', () => {
    const index = read('index.html');
    expect(index).toMatch(/<html lang="sv" dir="ltr">/);
    expect(read('styles/global.css.ts')).toMatch(/colorScheme: 'light'/);
    for (const f of [...files('styles', /\.ts$/), ...files('src', /\.(ts|tsx)$/)]) {
      expect(read(f), f).not.toMatch(/prefers-color-scheme:\s*dark/);
      expect(read(f), f).not.toMatch(/dir=["']rtl/);
    }
  });

  it('uses Quicksand, self-hosted from @fontsource', () => {
    expect(read('styles/theme.css.ts')).toMatch(/"Quicksand"/);
    expect(read('src/main.tsx')).toMatch(/import '@fontsource\/quicksand\/400\.css'/);
  });

  it('loads no font, style or script from another origin', () => {
    const index = read('index.html');
    expect(index).not.toMatch(/(src|href)="(https?:)?\/\//);
    for (const f of [...files('styles', /\.ts$/), ...files('src', /\.(ts|tsx|css)$/)]) {
      const text = read(f);
      expect(text, f).not.toMatch(/@import\s+url\(\s*['"]?https?:/);
      expect(text, f).not.toMatch(/fonts\.googleapis|fonts\.gstatic|cdn\.jsdelivr|unpkg\.com/);
    }
    // The one script from another origin is the analytics tracker, behind an id and consent.
    const creators = files('src', /\.(ts|tsx)$/).filter((f) => /createElement\(['"]script['"]\)/.test(read(f)));
    expect(creators).toEqual(['src/app/analytics.ts']);
  });
});
