import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One flow, one shape (ARCHITECTURE.md): what a page shows comes from its machine's tags through
 * the flow's hook, never from state names. A file under src/pages, src/components or src/app that
 * calls `.matches(` or reads a snapshot's `.value` fails here.
 */

const root = join(import.meta.dirname, '../..');
const scanned = ['src/pages', 'src/components', 'src/app'];


const RULES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'calls .matches( (a state name)', pattern: /\.matches\(/ },
  { name: "reads a snapshot's .value (a state name)", pattern: /\b(?:snapshot|snap|state|s)\.value\b|getSnapshot\(\)\.value\b/ },
];

/** What in `source` reads a state name, as `line: rule`. */
export function stateNameReads(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, i) => {
    for (const rule of RULES) if (rule.pattern.test(line)) found.push(`${i + 1}: ${rule.name}`);
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('flows read tags, never state names', () => {
  it('finds a page that matches a state name or reads the state value', () => {
    expect(stateNameReads("if (actor.getSnapshot().matches('opening')) open();")).toEqual(['1: calls .matches( (a state name)']);
    expect(stateNameReads('const shown = useSelector(actor, (s) => s.value);')).toEqual(["1: reads a snapshot's .value (a state name)"]);
    expect(stateNameReads("const x = 1;\nreturn snapshot.value === 'idle';")).toEqual(["2: reads a snapshot's .value (a state name)"]);
    expect(stateNameReads("const screen = screenOf(s, REDEEM_SCREENS);\nconst text = input.value;")).toEqual([]);
  });

  it('no page, shared component or app file reads a state name', () => {
    const problems = scanned
      .flatMap(sourceFiles)
      .flatMap((path) => stateNameReads(readFileSync(join(root, path), 'utf8')).map((p) => `${path}:${p}`));
    expect(problems).toEqual([]);
  });
});
