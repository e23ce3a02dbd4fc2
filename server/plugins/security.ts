import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyPluginCallback } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';

/**
 * helmet's options for our answers: a CSP allowing only the app's own origin (decision 004), HSTS
 * when PUBLIC_URL is https. Exported for the test that compares our headers with helmet's own
 * (a plain record: @fastify/helmet and helmet's ES module type the same options separately).
 */
export function helmetOptions(config: Config): Record<string, unknown> {
  const https = config.publicUrl.startsWith('https:');
  // Google Analytics origins, only when a measurement id is configured (the SPA still loads the
  // tracker only after consent: src/app/analytics.ts).
  const ga = config.analyticsId
    ? { script: ['https://www.googletagmanager.com'], connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com'] }
    : { script: [], connect: [] };
  return {
    // The SPA loads only its own files: scripts, styles and the self-hosted font.
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...ga.script],
        styleSrc: ["'self'"],
        // Radix's modal dialog (the navigation drawer) locks scrolling with a small <style> element
        // it writes at run time (react-remove-scroll); its content varies, so no hash fits. Inline
        // <style> elements are allowed, nothing else inline: no inline scripts, and style
        // attributes still fall under style-src 'self' (decision 004).
        styleSrcElem: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...ga.connect],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...ga.connect],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
}

/**
 * The headers helmet sets for `options`, through its documented middleware API on a real (never
 * sent) Node response: with static options (ours are: no nonces, no functions) they are the same
 * for every request.
 */
export function securityHeaders(options: Record<string, unknown>): Record<string, string> {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  let failed: unknown;
  helmet(options as HelmetOptions)(req, res, (err?: unknown) => (failed = err));
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
}

/**
 * Security headers (decision 004) on every answer: the same headers helmet makes from our
 * options, computed once at start instead of by @fastify/helmet on every request (decision 064;
 * tests/server/merchant/read-path.test.ts compares them with @fastify/helmet's own).
 */
const securityHeadersPlugin: FastifyPluginCallback<{ config: Config }> = (app, { config }, done) => {
  const headers = securityHeaders(helmetOptions(config));
  // The same object for the catalogue's fast path (server/merchant/fast-read.ts): one source.
  app.decorate('answerSecurityHeaders', Object.freeze(headers));
  app.addHook('onRequest', (_req, reply, next) => {
    reply.headers(headers);
    next();
  });
  done();
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers every answer carries, computed once at start. */
    answerSecurityHeaders: Readonly<Record<string, string>>;
  }
}

export default fp(securityHeadersPlugin, { name: 'greetie-security-headers' });
