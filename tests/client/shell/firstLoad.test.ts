import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groups } from '../../../src/app/routes.tsx';
import { frameNamespaces } from '../../../src/i18n.ts';

/**
 * What the first load leaves out must come with the pages that need it (decision 011): each route
 * group's `lazy` loads the locale namespaces its code uses and, where its pages show gifts, the
 * voucher store. These read the code itself, so a page that starts using another namespace (or the
 * voucher store) without its group saying so fails here, not as a raw key or a missing actor in the
 * browser.
 */
const root = resolve(__dirname, '../../..');

/** The files `entry` imports statically (and re-exports), transitively, within src/. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [resolve(root, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/^\s*(?:import|export)\s(?:[^;'"]*?\sfrom\s+)?'(\.[^']+\.tsx?)'/gm)) {
      const next = resolve(dirname(file), m[1]!);
      if (next.startsWith(resolve(root, 'src')) && existsSync(next)) queue.push(next);
    }
  }
  return [...seen];
}

/** The namespaces a file's strings come from: useTranslation('x'), useTranslation() (common), { ns: 'x' }, t('x:key'). */
function namespacesOf(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const out = new Set<string>();
  for (const m of code.matchAll(/useTranslation\(\s*'([\w-]+)'/g)) out.add(m[1]!);
  for (const m of code.matchAll(/useTranslation\(\s*\[([^\]]*)\]/g)) for (const n of m[1]!.matchAll(/'([\w-]+)'/g)) out.add(n[1]!);
  if (/useTranslation\(\s*\)/.test(code)) out.add('common');
  for (const m of code.matchAll(/\bns:\s*'([\w-]+)'/g)) out.add(m[1]!);
  for (const m of code.matchAll(/\bt\(\s*['`]([a-z]+):/g)) out.add(m[1]!);
  return [...out];
}

const usedBy = (files: string[]) => [...new Set(files.flatMap(namespacesOf))].sort();

describe('the first load', () => {
  it("carries only the frame's Swedish strings: common and legal (the footer)", () => {
    expect([...frameNamespaces].sort()).toEqual(['common', 'legal']);
  });

  it("uses, in everything main.tsx imports statically, only the frame's namespaces", () => {
    const used = usedBy(staticClosure('src/main.tsx'));
    expect(used.filter((ns) => !frameNamespaces.includes(ns))).toEqual([]);
  });

  it('does not import the voucher store (machines/vouchers.ts) statically', () => {
    const files = staticClosure('src/main.tsx').map((f) => relative(root, f));
    expect(files).not.toContain('src/app/vouchers.ts');
    expect(files).not.toContain('src/components/vouchers.ts');
    expect(readFileSync(resolve(root, 'machines/app.ts'), 'utf8')).not.toMatch(/^import \{[^}]*\} from '\.\/vouchers\.ts'/m);
  });

  it("does not import the session's code statically: the auth machine, its implementations, the API client", () => {
    const files = staticClosure('src/main.tsx').map((f) => relative(root, f));
    for (const late of ['src/app/sessionCode.ts', 'src/app/auth.ts', 'src/api/auth.ts', 'src/api/client.ts', 'src/api/greetieView.ts']) {
      expect(files).not.toContain(late);
    }
    // Types only: a value from machines/auth.ts would bring the machine in.
    expect(readFileSync(resolve(root, 'machines/app.ts'), 'utf8')).not.toMatch(/^import \{[^}]*\} from '\.\/auth\.ts'/m);
    for (const file of files) expect(readFileSync(resolve(root, file), 'utf8'), file).not.toMatch(/^import \{[^}]*\} from '[./]*machines\/auth\.ts'/m);
  });
});

describe.each(Object.entries(groups))('route group %s', (name, group) => {
  const files = staticClosure(`src/pages/${name}/routes.tsx`);

  it('loads every namespace its pages use, and none they do not', () => {
    const needed = usedBy(files).filter((ns) => !frameNamespaces.includes(ns));
    expect([...group.namespaces].sort()).toEqual(needed);
  });

  it("waits for the session's code when its pages read the auth actor", () => {
    const reads = files.some((f) => /\buse(AuthActor|SignIn)\(/.test(readFileSync(f, 'utf8')));
    if (reads) expect(group.session).toBe(true);
  });

  it('starts the voucher store exactly when its pages read it', () => {
    const reads = files.some((f) => relative(root, f) === 'src/components/vouchers.ts');
    expect(group.voucherStore).toBe(reads);
  });
});
