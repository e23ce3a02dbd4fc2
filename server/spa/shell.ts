import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { firstScreenCss, firstScreenLayer, firstScreenMarkup, quicksandFiles, type FirstScreenRoute } from './firstScreens.ts';

/**
 * index.html as the server answers it (decision 094), prepared once at start.
 *
 * - The entry's stylesheets (`<link rel="stylesheet" href="/assets/….css">`, about 13 KB, 4 KB
 *   compressed) are inlined as `<style>` elements in the same place: the first paint no longer
 *   waits for two requests that share a slow connection with the app's module scripts, and the
 *   cascade order is unchanged (a route's stylesheet, appended to <head> later, still comes after
 *   them). Inline `<style>` elements are allowed by the CSP (decision 004); nothing else changes.
 * - '/', '/merchant' and '/auth/jwt/login' also get their first screen (server/spa/firstScreens.ts).
 *
 * Each variant is kept with its brotli and gzip copies; answers are `no-cache`, like the file.
 */

export interface PreparedHtml {
  html: string;
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function prepare(html: string): PreparedHtml {
  const raw = Buffer.from(html, 'utf8');
  return {
    html,
    raw,
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzip: gzipSync(raw, { level: 9 }),
  };
}

/**
 * The `<link rel="stylesheet">` elements of built assets replaced by `<style>` elements with the
 * files' text. A link whose file is missing, or outside /assets/, is left as it is.
 */
export function inlineStylesheets(html: string, staticDir: string): string {
  return html.replace(/<link\b[^>]*\brel=["']stylesheet["'][^>]*>/g, (tag) => {
    const href = /\bhref=["'](\/assets\/[^"'?#]+\.css)["']/.exec(tag)?.[1];
    if (!href || href.includes('..')) return tag;
    const file = path.join(staticDir, href);
    if (!existsSync(file)) return tag;
    // A `</style` inside the text would end the element early; built CSS has none, but be sure.
    const css = readFileSync(file, 'utf8').replace(/<\/style/gi, '<\\/style');
    return `<style data-href="${href}">${css}</style>`;
  });
}

/**
 * The app's module scripts and their preloads at low fetch priority: the first screen is in the
 * HTML and needs no script, so on a slow connection the fonts and the first screen's image (the
 * greetie's frame, `fetchpriority="high"`) get the bandwidth first and the code follows.
 */
export function lowerScriptPriority(html: string): string {
  return html.replace(/<(script type="module"|link rel="modulepreload")(?![^>]*fetchpriority)/g, '<$1 fetchpriority="low"');
}

/**
 * The app's entry asked for after the first paint (decision 152): the built entry's
 * `<script type="module" src="/assets/…">` becomes `/boot.js?entry=…` (public/boot.js), which
 * imports it in the frame after the first screen is painted. The first screen is in the HTML and
 * needs no script. Before, the entry often arrived and ran before that paint, which delayed it,
 * and Lighthouse's LCP estimate charged every script that had finished downloading before the
 * paint (~140 KB gzip on a slow phone network, ~1 s) to the LCP. On a phone the fonts and the
 * view's frame had the bandwidth first anyway (the scripts are at low priority); the code now
 * starts downloading once they are painted. The entry's own static imports (its modulepreloads)
 * are named to boot.js too (`&preload=…`), which asks for them beside the entry (decision 156). A
 * page without a built entry (the dev server's /src/main.tsx) is left as it is.
 */
export function startAfterFirstPaint(html: string, { keepPreloads = false }: { keepPreloads?: boolean } = {}): string {
  const entry = /<script type="module" crossorigin src="(\/assets\/[\w.-]+\.js)"><\/script>/.exec(html);
  if (!entry) return html;
  // /flows (decision 154) keeps its preloads in the HTML: the page's and the machine's chunks are
  // wanted at once for the hand-over from its frame, and the frame itself needs no font or picture.
  if (keepPreloads) return html.replace(entry[0], `<script type="module" src="/boot.js?entry=${entry[1]}"></script>`);
  // The entry's static imports too (since decision 156 the first load's code is a file the small
  // entry imports): boot.js asks for them beside the entry, after the paint, not the HTML before it.
  const preloads: string[] = [];
  const without = html.replace(/\s*<link rel="modulepreload" crossorigin href="(\/assets\/[\w.-]+\.js)">/g, (_, href: string) => {
    preloads.push(href);
    return '';
  });
  const query = [`entry=${entry[1]}`, ...preloads.map((href) => `preload=${href}`)].join('&amp;');
  return without.replace(entry[0], `<script type="module" src="/boot.js?${query}"></script>`);
}

/** index.html with a route's first screen: its CSS at the end of <head>, its layer after #root. */
export function withFirstScreen(html: string, route: FirstScreenRoute, markup: string): string | null {
  const headEnd = html.indexOf('</head>');
  const bodyEnd = html.lastIndexOf('</body>');
  if (headEnd === -1 || bodyEnd === -1) return null;
  return (
    html.slice(0, headEnd) +
    `<style>${firstScreenCss(quicksandFiles(html))}</style>\n  ` +
    html.slice(headEnd, bodyEnd) +
    `  ${firstScreenLayer(route, markup)}\n  ` +
    html.slice(bodyEnd)
  );
}

export interface SpaPages {
  /** The page every client route gets (the entry's CSS inlined); the base of the view's shell. */
  plain: PreparedHtml;
  /** The plain page's HTML with the entry started after the first paint: the greetie view's base. */
  paintFirst: string;
  /** By route: the page with that route's first screen. */
  firstScreens: Partial<Record<FirstScreenRoute, PreparedHtml>>;
}

export function createSpaPages(staticDir: string): SpaPages {
  const inlined = inlineStylesheets(readFileSync(path.join(staticDir, 'index.html'), 'utf8'), staticDir);
  const html = lowerScriptPriority(inlined);
  // The pages whose first screen is in the HTML start the app after painting it (decision 152).
  const paintFirst = lowerScriptPriority(startAfterFirstPaint(inlined));
  const firstScreens: SpaPages['firstScreens'] = {};
  const markup = firstScreenMarkup();
  for (const route of Object.keys(markup) as FirstScreenRoute[]) {
    const page = withFirstScreen(paintFirst, route, markup[route]);
    if (page) firstScreens[route] = prepare(page);
  }
  return { plain: prepare(html), paintFirst, firstScreens };
}

/** Sends a prepared page, brotli or gzip as the browser accepts. */
export function sendHtml(req: FastifyRequest, reply: FastifyReply, page: PreparedHtml, cacheControl = 'no-cache'): FastifyReply {
  const accepts = String(req.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : undefined;
  reply.code(200).type('text/html; charset=utf-8').header('cache-control', cacheControl).header('vary', 'accept-encoding');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.raw);
}
