import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { sendError } from '../errors.ts';
import { createViewShell } from '../spa/viewShell.ts';
import { createSpaPages, sendHtml } from '../spa/shell.ts';
import { createFlowsPages, readManifest } from '../spa/preloads.ts';
import { FIRST_SCREEN_PATHS } from '../spa/firstScreens.ts';
import { flowsFrame, readFrameData, readFrameTexts } from '../spa/flowsFrame.ts';

/** Hashed assets never change; index.html must be revalidated so a deploy reaches everyone. */
export function cacheControlFor(relativePath: string): string {
  if (relativePath.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (relativePath === 'index.html' || relativePath.startsWith('index.html.')) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * The built SPA from STATIC_DIR: its files, the pages painted on the server (a greetie's first
 * frame, the first screens) and index.html for every other GET outside /api; the one not-found
 * answer for everything else. Without a build, a page asks for one (503).
 */
const spa: FastifyPluginAsync<{ config: Config; db: Db }> = async (app, { config, db }) => {
  // index.html with the entry's stylesheets inlined, prepared once (server/spa/shell.ts, decision 094).
  const pages = existsSync(path.join(config.staticDir, 'index.html')) ? createSpaPages(config.staticDir) : undefined;
  if (pages) {
    await app.register(fastifyStatic, {
      root: config.staticDir,
      prefix: '/',
      preCompressed: true,
      cacheControl: false,
      // '/' is index.html as prepared below (its stylesheets inlined, the landing's first screen).
      index: false,
      // The build's manifest (dist/.vite/, read by server/spa/preloads.ts) is not a page's file.
      allowedPath: (pathname) => !pathname.startsWith('/.vite/'),
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(path.relative(config.staticDir, filePath).split(path.sep).join('/')));
      },
    });
    // The greetie a recipient opens: index.html with its first frame (server/spa/viewShell.ts,
    // decision 090); an unknown or undelivered ref, or ?byId=true, gets the plain file.
    const viewShell = createViewShell(pages.paintFirst, db);
    app.get<{ Params: { refId: string }; Querystring: Record<string, string | string[] | undefined> }>(
      '/greetie/view/:refId',
      { schema: { hide: true } },
      async (req, reply) => {
        if (req.query.byId !== 'true' && (await viewShell.send(req.params.refId, req, reply))) return reply;
        return sendHtml(req, reply, pages.plain);
      },
    );
    // /flows names its page's chunks and the asked machine's files for the browser to fetch at
    // once (server/spa/preloads.ts, decision 148), and whether the sandbox is on (decision 149).
    // With its chart drawn in the HTML, in Swedish like the first screens (server/spa/flowsFrame.ts,
    // decision 154), unless the address selects a state, a transition or a path.
    const frameTexts = readFrameTexts('sv');
    const flowsPage = createFlowsPages(pages.plain.html, readManifest(config.staticDir), {
      sandbox: config.sandbox,
      // Without the sandbox /flows is "Sidan finns inte": no chart to draw first.
      frameOf: config.sandbox
        ? (machine) => {
            const data = readFrameData(machine);
            return data && flowsFrame(data, frameTexts, 'sv');
          }
        : undefined,
    });
    app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/flows', { schema: { hide: true } }, (req, reply) =>
      sendHtml(req, reply, flowsPage(req.query.machine, !req.query.state && !req.query.transition && !req.query.path)),
    );
    // '/', '/merchant' and '/auth/jwt/login' with their first screen painted from the HTML
    // (server/spa/firstScreens.ts, decision 094).
    for (const [routePath, screen] of Object.entries(FIRST_SCREEN_PATHS)) {
      const page = pages.firstScreens[screen] ?? pages.plain;
      app.get(routePath, { schema: { hide: true } }, (req, reply) => sendHtml(req, reply, page));
    }
  }

  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/')) return sendError(req, reply, 404, 'ROUTE_NOT_FOUND');
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(req, reply, 404, 'ROUTE_NOT_FOUND');
    // A missing hashed asset must be a 404, not index.html served as JavaScript.
    if (pathname.startsWith('/assets/')) return sendError(req, reply, 404, 'NOT_FOUND');
    if (!pages) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send('Appen är inte byggd. Kör "npm run build" (eller "npm start").');
    }
    // Client-side routes: the SPA decides (and shows /404 for paths it does not know).
    return sendHtml(req, reply, pages.plain);
  });
};

export default fp(spa, { name: 'greetie-spa' });
