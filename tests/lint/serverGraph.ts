import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The server's import graph between resources (decision 025). A node is a resource folder of
 * server/ (`greetie`), a provider (`providers/payment`) or a file at the top of server/
 * (`errors.ts`). An edge is a value import: `import type`, imports whose every name is a type and
 * `export type … from` do not count; dynamic `import()` does.
 */

export const serverDir = join(import.meta.dirname, '../../server');

export function serverFiles(dir = serverDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    if (d.isDirectory()) return d.name === 'migrations' ? [] : serverFiles(join(dir, d.name));
    return /\.m?ts$/.test(d.name) ? [join(dir, d.name)] : [];
  });
}

/** The relative specifiers a module imports at run time. */
export function valueImports(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const typeOnly = c && (c.isTypeOnly || (!c.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(n.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      const named = n.exportClause && ts.isNamedExports(n.exportClause) ? n.exportClause.elements : undefined;
      if (!(n.isTypeOnly || (named && named.length > 0 && named.every((e) => e.isTypeOnly)))) found.push(n.moduleSpecifier.text);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = n.arguments;
      if (arg && ts.isStringLiteral(arg)) found.push(arg.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return found.filter((s) => s.startsWith('.'));
}

/** The node a server file belongs to, or null outside server/. */
export function nodeOf(path: string): string | null {
  const rel = relative(serverDir, path);
  if (rel.startsWith('..')) return null;
  const parts = rel.split(sep);
  if (parts.length === 1) return parts[0]!;
  return parts[0] === 'providers' ? `providers/${parts[1]}` : parts[0]!;
}

/** node → imported node → the file imports that make the edge. `overrides` replaces files' text (tests). */
export type Graph = Map<string, Map<string, string[]>>;

export function resourceGraph(overrides: Record<string, string> = {}): Graph {
  const graph: Graph = new Map();
  const files = new Set([...serverFiles(), ...Object.keys(overrides).map((p) => join(serverDir, p))]);
  for (const file of files) {
    const from = nodeOf(file)!;
    const source = overrides[relative(serverDir, file)] ?? readFileSync(file, 'utf8');
    for (const spec of valueImports(file, source)) {
      const target = resolve(dirname(file), spec);
      const to = nodeOf(target);
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${relative(serverDir, file)} → ${relative(serverDir, target)}`]);
    }
  }
  return graph;
}

/** The cycles of the graph: its strongly connected components of more than one node (Tarjan). */
export function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The edges inside a cycle, with the imports that make them: what a failure message shows. */
export function explain(graph: Graph, cycle: string[]): string[] {
  return cycle.flatMap((a) => [...(graph.get(a) ?? [])].filter(([b]) => cycle.includes(b)).map(([b, why]) => `${a} → ${b} (${why.join('; ')})`));
}
