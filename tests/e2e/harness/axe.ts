import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | undefined;

/** axe-core's browser bundle, read once from node_modules. */
function axeSource(): string {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  targets: string[];
}

/** The impacts that fail a journey. Moderate and minor ones are written to a report instead. */
export const BLOCKING_IMPACTS = ['serious', 'critical'];

/**
 * Runs axe-core on the page as it is now. The app's CSP is `script-src 'self'`, so a <script>
 * tag with axe's source (what page.addScriptTag does, even with `path`) is refused, and
 * `bypassCSP` would change the page under test. Instead the source is evaluated through the
 * DevTools protocol (page.evaluate), which CSP does not govern, the same way @axe-core/playwright
 * injects it; the page's own CSP stays fully in force.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(async () => {
    type AxeResult = {
      violations: { id: string; impact: string | null; help: string; helpUrl: string; nodes: { target: unknown[] }[] }[];
    };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
  });
}

export function formatViolations(violations: AxeViolation[]): string {
  return violations.map((v) => `  ${v.id} (${v.impact}): ${v.help}\n    at ${v.targets.slice(0, 5).join(' | ')}${v.targets.length > 5 ? ` (+${v.targets.length - 5} more)` : ''}`).join('\n');
}
