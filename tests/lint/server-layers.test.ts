import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { cycles, explain, resourceGraph, serverDir, serverFiles, type Graph } from './serverGraph.ts';

/**
 * The server's one-way layers (decision 025, ARCHITECTURE.md "Server", Layers): no import cycle
 * between files (import-x/no-cycle in eslint.config.js) nor between resources (the graph built
 * here), and every resource imports only from the layers below its own.
 */

const root = join(import.meta.dirname, '../..');

/**
 * Bottom to top. Within the foundation and within the wiring, nodes may import each other (the
 * cycle check still applies); anywhere else an import goes to a lower layer only.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // foundation: shared helpers, the database, settings, messages' registry, outside services
  ['access.ts', 'config.ts', 'cursor.ts', 'errors.ts', 'mediaUrls.ts', 'net.ts', 'openapi.ts', 'periodic.ts', 'process.ts', 'services.ts', 'settings.ts', 'validation.ts',
    'db', 'i18n', 'idempotency', 'providers/payment', 'providers/push', 'providers/sms', 'providers/storage'],
  ['auth', 'merchant', 'notification', 'seller', 'health', 'spa'],
  ['delivery', 'voucher'],
  ['greetie'],
  ['media', 'payment', 'portal'],
  ['mobileuser'],
  // wiring: what puts the resources together
  ['messages.ts', 'seed.ts', 'routes.ts', 'sandbox', 'admin', 'plugins', 'app.ts', 'main.ts', 'v8-flags.ts'],
];
const FOUNDATION = 0;
const WIRING = LAYERS.length - 1;

function layerErrors(graph: Graph): string[] {
  const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
  const errors: string[] = [];
  for (const [from, edges] of graph) {
    const a = layerOf.get(from);
    if (a === undefined) {
      errors.push(`server/${from} is in no layer: add it to LAYERS in tests/lint/server-layers.test.ts and to ARCHITECTURE.md`);
      continue;
    }
    for (const [to, why] of edges) {
      const b = layerOf.get(to);
      if (b === undefined) errors.push(`server/${to} is in no layer: add it to LAYERS in tests/lint/server-layers.test.ts and to ARCHITECTURE.md`);
      else if (b < a || (a === b && (a === FOUNDATION || a === WIRING))) continue;
      else errors.push(`${from} (layer ${a}) imports ${to} (layer ${b}), which is not below it: ${why.join('; ')}`);
    }
  }
  return [...new Set(errors)];
}

/** Imports of another resource's queries.ts from outside the wiring layer. */
function queryReaches(graph: Graph): string[] {
  const wiring = new Set(LAYERS[WIRING]);
  return [...graph]
    .filter(([from]) => !wiring.has(from))
    .flatMap(([, edges]) => [...edges.values()].flat())
    .filter((why) => /\/queries\.ts$/.test(why));
}

describe('server resources: no cycles, one-way layers', () => {
  it('has no cycle between resource folders (value imports only)', () => {
    const graph = resourceGraph();
    expect(cycles(graph).map((c) => explain(graph, c))).toEqual([]);
  });

  it('keeps every import pointing down the layers', () => {
    expect(layerErrors(resourceGraph())).toEqual([]);
  });

  it('lets a resource use another through its rules, never its queries (the wiring may)', () => {
    expect(queryReaches(resourceGraph())).toEqual([]);
    const rules = readFileSync(join(serverDir, 'media/rules.ts'), 'utf8');
    const reach = resourceGraph({ 'media/rules.ts': `import { giftsOf } from '../greetie/queries.ts';\n${rules}` });
    expect(queryReaches(reach)).toEqual(['media/rules.ts → greetie/queries.ts']);
  });

  it('fails a cycle: the i18n registry importing a resource, as it once did', () => {
    const index = readFileSync(join(serverDir, 'i18n/index.ts'), 'utf8');
    const graph = resourceGraph({ 'i18n/index.ts': `import { messages as auth } from '../auth/messages.ts';\n${index}` });
    const found = cycles(graph);
    expect(found).toHaveLength(1);
    expect(found[0]).toEqual(expect.arrayContaining(['auth', 'errors.ts', 'i18n']));
    expect(explain(graph, found[0]!).join('\n')).toMatch(/i18n → auth \(i18n\/index\.ts → auth\/messages\.ts\)/);
    expect(layerErrors(graph)).toEqual([expect.stringMatching(/^i18n \(layer 0\) imports auth \(layer 1\)/)]);
  });

  it('fails a resource that imports one above it, and ignores type-only imports', () => {
    const rules = readFileSync(join(serverDir, 'greetie/rules.ts'), 'utf8');
    const up = resourceGraph({ 'greetie/rules.ts': `import { openPayment } from '../payment/queries.ts';\n${rules}` });
    expect(cycles(up)).toEqual([['greetie', 'payment']]);
    const typeOnly = resourceGraph({
      'greetie/rules.ts': `import type { PaymentRow } from '../payment/queries.ts';\nimport { type PaymentDeps } from '../payment/rules.ts';\n${rules}`,
    });
    expect(cycles(typeOnly)).toEqual([]);
  });

  it('parses Bearer tokens in one place: app.authenticate and app.authenticateOptional', () => {
    const parsers = serverFiles()
      .filter((f) => /Bearer \(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(serverDir, f));
    expect(parsers).toEqual(['auth/authenticate.ts']);
  });
});

describe('import-x/no-cycle on server files', () => {
  const eslint = new ESLint({ cwd: root });
  const cycleErrors = async (path: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(root, path) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-cycle');
  };

  it('fails a provider implementation that imports its index (which imports it back)', async () => {
    const code = "import { SmsError } from './index.ts';\nexport const fail = () => new SmsError('rejected', 'no');\n";
    expect(await cycleErrors('server/providers/sms/elks.ts', code)).toHaveLength(1);
  });

  it('passes the same import from the provider interface, and a type-only import of the index', async () => {
    const code = "import { SmsError } from './provider.ts';\nimport type { SmsSender } from './index.ts';\nexport const fail = (_s?: SmsSender) => new SmsError('rejected', 'no');\n";
    expect(await cycleErrors('server/providers/sms/elks.ts', code)).toEqual([]);
  });
});
