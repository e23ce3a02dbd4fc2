import '../../styles/global.css.ts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createElement } from 'react';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { NotFoundPage } from '../../src/components/NotFoundPage.tsx';
import { createI18n } from '../../src/i18n.ts';

const root = resolve(__dirname, '../..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(root, p)).isDirectory() ? files(p, ext) : ext.test(name) ? [p] : [];
  });
}

/**
 * A computed style as the browser would paint it. jsdom computes the cascade but leaves the
 * theme's `var(--…)` references as they are; they are resolved here from the document's own
 * custom properties (the theme sets them on :root).
 */
function seen(element: Element, property: string): string {
  let value = getComputedStyle(element).getPropertyValue(property).trim();
  const rootStyle = getComputedStyle(document.documentElement);
  for (let depth = 0; depth < 5 && value.includes('var(--'); depth++) {
    value = value.replace(/var\((--[\w-]+)\)/g, (_, name: string) => rootStyle.getPropertyValue(name).trim());
  }
  return value;
}

/** The 404 page, one every visitor can reach, rendered with the app's styles. */
function renderPage() {
  render(
    createElement(I18nextProvider, { i18n: createI18n('sv') }, createElement(MemoryRouter, null, createElement(NotFoundPage))),
  );
}

describe('theme', () => {
  it('shows the brand pink #ED5AA4 and buttons with a radius of 8', () => {
    renderPage();
    expect(seen(screen.getByText('404'), 'color').toUpperCase()).toBe('#ED5AA4');
    const home = screen.getByRole('link', { name: 'Till startsidan' });
    expect(seen(home, 'border-radius')).toBe('8px');
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

  it('sets the page in Quicksand, self-hosted from @fontsource', () => {
    renderPage();
    expect(seen(document.body, 'font-family')).toMatch(/^"?Quicksand"?,/);
    expect(seen(screen.getByRole('heading', { level: 1 }), 'font-family')).toMatch(/^"?Quicksand"?,/);
    // The font files come with the app (no font service): the entry imports them.
    expect(read('src/main.tsx')).toMatch(/import '@fontsource\/quicksand\/latin-400\.css'/);
  });

  it('loads only the font weights the styles use, in the latin subsets (decision 137)', () => {
    const sources = [...files('styles', /\.ts$/), ...files('src', /\.(ts|tsx)$/)];
    const imports = sources.flatMap((f) => [...read(f).matchAll(/import '@fontsource\/([\w-]+)\/([\w.-]+)\.css'/g)].map((m) => ({ f, family: m[1]!, file: m[2]! })));
    // A weight file without a subset (`400.css`) lists every subset, Vietnamese and Cyrillic too.
    for (const i of imports) expect(i.file, `${i.f}: @fontsource/${i.family}/${i.file}.css`).toMatch(/^latin(-ext)?-\d{3}$/);
    // Every Quicksand weight the styles set (400 is the body's), and no other.
    const used = new Set(['400', ...sources.filter((f) => !f.includes('/editor/')).flatMap((f) => [...read(f).matchAll(/fontWeight:\s*'?(\d{3})/g)].map((m) => m[1]!))]);
    const quicksand = (subset: string) => new Set(imports.filter((i) => i.family === 'quicksand' && i.file.startsWith(`${subset}-`) && i.file.slice(subset.length + 1).match(/^\d{3}$/)).map((i) => i.file.slice(-3)));
    expect([...quicksand('latin')].sort()).toEqual([...used].sort());
    expect([...quicksand('latin-ext')].sort()).toEqual([...used].sort());
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
