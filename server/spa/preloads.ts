import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { prepare, startAfterFirstPaint, type PreparedHtml } from './shell.ts';
import { firstScreenCss, quicksandFiles } from './firstScreens.ts';
import { FLOWS_FRAME_RULES } from './flowsFrame.ts';

/**
 * A route's code named in its HTML (decision 148): for /flows, the page's chunk, the chunks it
 * imports and the asked machine's generated files as `<link rel="modulepreload">`, so the browser
 * fetches them while it evaluates the entry instead of after (decision 139 measured ~0.4 s between
 * the entry's arrival and the page chunk's request on a busy machine). The names come from Vite's
 * build manifest (`dist/.vite/manifest.json`, `build.manifest` in vite.config.ts); without one the
 * page is the plain index.html.
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

export function readManifest(staticDir: string): Manifest | undefined {
  const file = path.join(staticDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * What the given modules need before they run, in one walk of the manifest: their JavaScript files
 * (each module's file and its static imports, transitively, in that order) and their stylesheets
 * (the page's own CSS, which Vite's loader adds when the chunk is imported), without the entry
 * (index.html loads it) and without modules the manifest does not know.
 */
export function chunkFiles(manifest: Manifest, keys: readonly string[]): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry) return;
    if (chunk.file.endsWith('.js')) scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return { scripts: [...scripts], styles: [...styles] };
}

/**
 * index.html with a modulepreload for each script and a preload for each stylesheet it does not
 * name already, at the end of <head>.
 */
export function withModulePreloads(html: string, files: readonly string[], styles: readonly string[] = []): string {
  const headEnd = html.indexOf('</head>');
  if (headEnd === -1) return html;
  const fresh = (file: string, ext: string) => new RegExp(`^assets/[\\w.-]+\\.${ext}$`).test(file) && !html.includes(`/${file}"`);
  const links = [
    ...files.filter((file) => fresh(file, 'js')).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...styles.filter((file) => fresh(file, 'css')).map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ];
  if (links.length === 0) return html;
  return `${html.slice(0, headEnd)}${links.join('\n    ')}\n  ${html.slice(headEnd)}`;
}

/**
 * The module keys of /flows's page (its chunk, the route's early chunk and its strings in Swedish,
 * the language of a visitor who has not chosen one: src/i18n.ts) and of one machine's generated
 * chart, layout and test paths (src/pages/flows/early.ts).
 */
const FLOWS_PAGE = ['src/pages/flows/routes.tsx', 'src/pages/flows/early.ts', 'locales/sv/flows.json'];
const machineFiles = (machine: string) => [
  `docs/flows/charts/${machine}.json`,
  `docs/flows/layouts/${machine}.json`,
  `docs/coverage/paths/${machine}.json`,
];

/**
 * Says in the HTML that this server's sandbox is on (the answer GET /api/sandbox would give), so
 * /flows draws without asking first (src/pages/flows/early.ts, decision 149).
 */
export const SANDBOX_META = '<meta name="greetie-sandbox" content="on">';

/** A machine's chart as static markup for /flows's HTML (server/spa/flowsFrame.ts): the layer and its placements' CSS. */
export type FlowsFrameOf = (machine: string) => { markup: string; css: string } | undefined;

/**
 * /flows's HTML by the machine in its address (`?machine=`), prepared once per machine on first
 * use. A machine the build does not know, or none, gets the page's own chunks only; the set of
 * variants is bounded by the machines in the manifest. With the sandbox on, the HTML says so.
 * With `frameOf`, a known machine's page also carries its chart's first frame (decision 154),
 * unless the address selects something (`withFrame` false: the page would open elsewhere).
 */
export function createFlowsPages(
  plainHtml: string,
  manifest: Manifest | undefined,
  { sandbox = false, frameOf }: { sandbox?: boolean; frameOf?: FlowsFrameOf } = {},
): (machine: unknown, withFrame?: boolean) => PreparedHtml {
  const known = (machine: unknown): machine is string =>
    typeof machine === 'string' && /^[A-Za-z][\w-]{0,63}$/.test(machine) && manifest?.[`docs/flows/charts/${machine}.json`] !== undefined;
  // No first screen here for the fonts to go first with (server/spa/shell.ts, lowerScriptPriority):
  // the entry and the preloads below are all the page is waiting for, at the browser's own priority.
  const plain = plainHtml.replaceAll(' fetchpriority="low"', '');
  const headEnd = plain.indexOf('</head>');
  const html = sandbox && headEnd !== -1 ? `${plain.slice(0, headEnd)}${SANDBOX_META}\n  ${plain.slice(headEnd)}` : plain;
  const variants = new Map<string, PreparedHtml>();
  return (machine, withFrame = true) => {
    const name = known(machine) ? machine : '';
    const framed = Boolean(name && withFrame && frameOf);
    const key = `${name}${framed ? '+frame' : ''}`;
    let page = variants.get(key);
    if (!page) {
      const keys = name ? [...FLOWS_PAGE, ...machineFiles(name)] : FLOWS_PAGE;
      const files = manifest && chunkFiles(manifest, keys);
      const preloaded = files ? withModulePreloads(html, files.scripts, files.styles) : html;
      const frame = framed ? frameOf!(name) : undefined;
      page = prepare(frame ? withFlowsFrame(preloaded, frame) : preloaded);
      variants.set(key, page);
    }
    return page;
  };
}

/**
 * The page with a chart's first frame: its CSS at the end of <head> (the header's, the frame's, the
 * placements'), the layer after #root, and the entry started after the first paint (public/boot.js,
 * decision 152) but fetched at once (a modulepreload): the frame needs no script, and the entry's
 * evaluation, before the paint, delayed it.
 */
export function withFlowsFrame(page: string, frame: { markup: string; css: string }): string {
  const entry = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/.exec(page)?.[1];
  const html = entry ? startAfterFirstPaint(page, { keepPreloads: true }).replace('</head>', `<link rel="modulepreload" crossorigin href="${entry}">\n  </head>`) : page;
  const headEnd = html.indexOf('</head>');
  const bodyEnd = html.lastIndexOf('</body>');
  if (headEnd === -1 || bodyEnd === -1) return html;
  return (
    html.slice(0, headEnd) +
    `<style>${firstScreenCss(quicksandFiles(html))}${FLOWS_FRAME_RULES}${frame.css.replace(/<\/style/gi, '')}</style>\n  ` +
    html.slice(headEnd, bodyEnd) +
    `  ${frame.markup}\n  ` +
    html.slice(bodyEnd)
  );
}
