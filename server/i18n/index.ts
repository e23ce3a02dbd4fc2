import type { FastifyRequest } from 'fastify';
import { messages as common } from './common.ts';
import { messages as auth } from '../auth/messages.ts';
import { messages as merchant } from '../merchant/messages.ts';
import { messages as greetie } from '../greetie/messages.ts';
import { messages as media } from '../media/messages.ts';
import { messages as mobileuser } from '../mobileuser/messages.ts';
import { messages as payment } from '../providers/payment/messages.ts';
import { messages as paymentCalls } from '../payment/messages.ts';
import { messages as delivery } from '../delivery/messages.ts';
import { messages as voucher } from '../voucher/messages.ts';
import { messages as notification } from '../notification/messages.ts';
import { messages as idempotency } from '../idempotency/messages.ts';

export type Lang = 'sv' | 'en';

/** A message in both languages; `{name}` placeholders are filled from `params`. */
export interface Message {
  sv: string;
  en: string;
}

/**
 * The error-message catalogue. Each resource keeps its own messages in a `messages.ts`
 * beside its routes and adds it here, so a code always has both languages.
 */
const catalogue: Readonly<Record<string, Message>> = { ...common, ...auth, ...merchant, ...greetie, ...media, ...mobileuser, ...payment, ...paymentCalls, ...voucher, ...delivery, ...notification, ...idempotency };

export function hasMessage(code: string): boolean {
  return code in catalogue;
}

export function allMessageCodes(): string[] {
  return Object.keys(catalogue);
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

export function translate(code: string, lang: Lang, params: Record<string, string | number> = {}): string {
  const entry = catalogue[code] ?? catalogue.INTERNAL_ERROR!;
  return fillPlaceholders(entry[lang], params);
}
