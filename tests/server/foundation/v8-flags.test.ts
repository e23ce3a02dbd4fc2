import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * The server's V8 settings (decision 163). What they do for speed is measured by the bench
 * (`npm run bench`, portal); here only that they are where every start takes them from.
 */
describe("the server's V8 settings", () => {
  it('turns allocation-site pretenuring off before any other module of the server is loaded', () => {
    const main = readFileSync(path.join(root, 'server/main.ts'), 'utf8');
    const firstImport = main.split('\n').find((line) => /^import\b/.test(line));
    expect(firstImport).toBe("import './v8-flags.ts';");
    expect(readFileSync(path.join(root, 'server/v8-flags.ts'), 'utf8')).toContain("v8.setFlagsFromString('--no-allocation-site-pretenuring')");
  });

  it('keeps the young generation at its full size and the idle-time collections off in the command npm start serves with', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.serve).toBe('node --min-semi-space-size=16 --no-memory-reducer --import tsx server/main.ts');
    expect(pkg.scripts.start).toBe('npm run build && npm run serve');
  });
});
