import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import zones of eslint.config.js (decision 013), run through ESLint's Node API with the
 * project's own config. Each fixture is a few lines of source linted as if it were the file at
 * `path`; its imports name real modules, so the resolver sees what it sees in the tree.
 */

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function zoneErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'no-restricted-imports')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import zones: shared → features (src/pages/<group>/) → app', () => {
  it('fails a page that imports another page group', async () => {
    const errors = await zoneErrors('src/pages/flows/LintFixture.tsx', "export { routes } from '../merchant/routes.tsx';\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/import-x\/no-restricted-paths: .*src\/pages\/flows\/ may not import another page group/);
  });

  it('passes a page that imports its own group and shared code', async () => {
    const code = [
      "export * as own from './routes.tsx';",
      "export { container } from '../../components/ui.css.ts';",
      "export { NotFoundPage } from '../../components/NotFoundPage.tsx';",
      "export { formatKr } from '../../format/money.ts';",
      "export { api } from '../../api/client.ts';",
      "export { inspect } from '../../inspect.ts';",
      "export { useSession } from '../../components/session.ts';",
      "export type { Chart } from '../../../charts/chart.ts';",
      '',
    ].join('\n');
    expect(await zoneErrors('src/pages/flows/LintFixture.tsx', code)).toEqual([]);
  });

  it('fails a page that imports the app, the session provider included', async () => {
    const errors = await zoneErrors('src/pages/merchant/LintFixture.tsx', "export { routes } from '../../app/routes.tsx';\n");
    expect(errors).toEqual([expect.stringMatching(/A page never imports the app/)]);
    const session = await zoneErrors('src/pages/merchant/LintFixture.tsx', "export { SessionProvider } from '../../app/session.ts';\n");
    expect(session).toEqual([expect.stringMatching(/A page never imports the app/)]);
  });

  it('lets the app import every page group', async () => {
    const code = "export const pages = [() => import('../pages/merchant/routes.tsx'), () => import('../pages/flows/routes.tsx')];\n";
    expect(await zoneErrors('src/app/LintFixture.tsx', code)).toEqual([]);
  });

  it('fails shared code that imports a page or the app', async () => {
    expect(await zoneErrors('src/components/LintFixture.ts', "export { routes } from '../pages/merchant/routes.tsx';\n")).toHaveLength(1);
    expect(await zoneErrors('src/format/LintFixture.ts', "export { provideAuth } from '../app/auth.ts';\n")).toHaveLength(1);
  });

  it('keeps src/api/ HTTP only: no React, no actors, no UI, no app', async () => {
    const code = [
      "export { useState } from 'react';",
      "export { createActor } from 'xstate';",
      "export { container } from '../components/ui.css.ts';",
      "export { provideAuth } from '../app/auth.ts';",
      "export { api } from './client.ts';",
      '',
    ].join('\n');
    const errors = await zoneErrors('src/api/LintFixture.ts', code);
    expect(errors).toHaveLength(4);
    expect(errors.filter((e) => e.startsWith('no-restricted-imports'))).toHaveLength(2);
  });

  it('keeps charts/ and machines/ below the app', async () => {
    expect(await zoneErrors('charts/LintFixture.ts', "export { inspect } from '../src/inspect.ts';\n")).toHaveLength(1);
    expect(await zoneErrors('machines/LintFixture.ts', "export { api } from '../src/api/client.ts';\n")).not.toEqual([]);
  });
});

describe('contract/ as the one home of its rules', () => {
  const messagesOf = async (path: string, code: string) =>
    ((await eslint.lintText(code, { filePath: join(root, path) }))[0]?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);

  it('lets machines/ and src/ import the contract', async () => {
    expect(await zoneErrors('machines/LintFixture.ts', "export { MERCHANT_CODE_PATTERN } from '../contract/merchant.ts';\n")).toEqual([]);
    expect(await zoneErrors('src/pages/greetie/LintFixture.ts', "export { PHOTO_TYPES } from '../../../contract/media.ts';\n")).toEqual([]);
  });

  it('fails `as unknown as` in machines/', async () => {
    const code = "import { MerchantCode } from '../contract/merchant.ts';\nexport const p = (MerchantCode as unknown as { pattern: string }).pattern;\n";
    expect(await messagesOf('machines/LintFixture.ts', code)).toEqual([expect.stringMatching(/No `as unknown as` in machines/)]);
    expect(await messagesOf('machines/LintFixture.ts', "export const n = (1 as number) as unknown;\n")).toEqual([]);
  });
});
