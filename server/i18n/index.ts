import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../contract/errors.ts';
import { messages as common } from './common.ts';

export type Lang = 'sv' | 'en';

/** A message in both languages; `{name}` placeholders are filled from `params`. */
export interface Message {
  sv: string;
  en: string;
}

/**
 * One resource's error messages: keys are API error codes (contract/errors.ts), so a message for a
 * code outside the union does not compile. Declared with `satisfies Catalogue` so each file keeps
 * its own keys in its type and server/messages.ts can check that together they cover every code.
 */
export type Catalogue = { readonly [K in ErrorCode]?: Message };

/**
 * The error-message catalogue, a registry filled from above: it holds the common messages, and
 * each resource's `messages.ts` is added at start-up (server/messages.ts, called by buildApp and
 * the admin command). So i18n sits below every resource and imports none of them.
 */
const catalogue: Catalogue = { ...common };

/** Adds catalogues to the registry; adding the same one again changes nothing. */
export function registerMessages(...catalogues: Catalogue[]): void {
  for (const messages of catalogues) Object.assign(catalogue, messages);
}

export function hasMessage(code: string): code is ErrorCode {
  return code in catalogue;
}

/** The codes that have a message (every key of the catalogue is an ErrorCode by its type). */
export function allMessageCodes(): ErrorCode[] {
  return Object.keys(catalogue) as ErrorCode[];
}

/**
 * Swedish unless the request's Accept-Language prefers English over Swedish.
 * "en-US,en;q=0.9" → en; "sv,en;q=0.8" → sv; "fr" → sv.
 */
export function languageOf(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'sv';
  let best: { lang: Lang; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag, ...rest] = part.trim().toLowerCase().split(';');
    if (!tag) continue;
    const base = tag.split('-')[0];
    if (base !== 'sv' && base !== 'en') continue;
    let q = 1;
    for (const p of rest) {
      const m = /^\s*q=([0-9.]+)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: base, q };
  }
  return best?.lang ?? 'sv';
}

export function requestLanguage(req: FastifyRequest): Lang {
  const header = req.headers['accept-language'];
  return languageOf(Array.isArray(header) ? header[0] : header);
}

/** Fills `{name}` placeholders from `params`; an unknown placeholder is left as written. */
export function fillPlaceholders(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}

export function translate(code: ErrorCode, lang: Lang, params: Record<string, string | number> = {}): string {
  const entry = catalogue[code] ?? catalogue.INTERNAL_ERROR!;
  return fillPlaceholders(entry[lang], params);
}
