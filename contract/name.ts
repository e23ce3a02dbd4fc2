import tldList from 'tlds';

/**
 * The one rule for a person's name: the profile name (POST /mobileuser, /mobileuser/{id}) and the
 * recipient's name of a greetie (create, createv2, PATCH). The server answers 400 with the problem
 * as its code; the client's name fields show the same problem's message before anything is sent
 * (docs/decisions/096-name-rule.md).
 *
 * A name goes out in Greetie's own SMS, so it may carry nothing a reader could act on or be
 * fooled by: no link, no domain name, no phone number, and nothing invisible or that turns the
 * text around (bidi controls).
 */

/** A name is at most this many characters (Unicode code points) once trimmed. */
export const NAME_MAX_LENGTH = 100;

/** Why a name is refused: the server's error code and the client's message key. */
export type NameProblem = 'NAME_EMPTY' | 'NAME_TOO_LONG' | 'NAME_INVALID_CHARACTERS' | 'NAME_HAS_LINK' | 'NAME_HAS_PHONE_NUMBER';

export const NAME_PROBLEMS: readonly NameProblem[] = ['NAME_EMPTY', 'NAME_TOO_LONG', 'NAME_INVALID_CHARACTERS', 'NAME_HAS_LINK', 'NAME_HAS_PHONE_NUMBER'];

/**
 * Control and format characters (Cc, Cf: the bidi embeddings, overrides and isolates U+202A–202E,
 * U+2066–2069, the zero-width characters U+200B–200F, U+061C, U+FEFF, U+2060–206F, the soft hyphen
 * U+00AD, tag characters…), the line and paragraph separators (Zl, Zp), the not yet assigned rest
 * of U+2060–206F, and the letters that draw as nothing (Hangul fillers, the braille blank).
 * A name is one visible line.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u2060-\u206f\u115f\u1160\u3164\uffa0\u2800]/u;

/** A scheme (`https:`, `http:`, any `xxx://`), a scheme that needs no slashes (`mailto:x`), or `www.`. */
const LINK = [
  /(?<![\p{L}\p{N}])https?:/iu,
  /(?<![\p{L}\p{N}])[\p{L}][\p{L}\p{N}+.-]*:\/\//iu,
  /(?<![\p{L}\p{N}])(?:mailto|tel|sms|smsto|callto|javascript|data|file|intent|ftp|swish|bankid|whatsapp):(?=[^\s])/iu,
  /(?<![\p{L}\p{N}])www\./iu,
];

/** Dots a browser or an SMS app reads as a dot in an address (IDNA maps these to "."). */
const DOT = '[.\u3002\uff0e\uff61]';
const LABEL = '[\\p{L}\\p{N}](?:[\\p{L}\\p{N}-]*[\\p{L}\\p{N}])?';
/** A word, then one or more dotted labels: "example.com", "greetie-support.se", "a.b.example.nu". */
const DOMAIN = new RegExp(`(?<![\\p{L}\\p{N}-])${LABEL}(?:${DOT}${LABEL})+(?![\\p{L}\\p{N}])`, 'gu');
const DOT_RE = new RegExp(DOT, 'u');

/** The top-level domains of the IANA root zone (the `tlds` package), lower case. */
const TLDS: ReadonlySet<string> = new Set(tldList.map((t) => t.toLowerCase()));

function hasDomain(text: string): boolean {
  for (const match of text.matchAll(DOMAIN)) {
    const labels = match[0].split(DOT_RE);
    const tld = labels[labels.length - 1]!.toLowerCase();
    // One letter after a dot is an initial ("A.B. Svensson"); no top-level domain is that short.
    if (tld.length >= 2 && (TLDS.has(tld) || tld.startsWith('xn--'))) return true;
  }
  return false;
}

/** Seven or more digits, counted across spaces, dashes, dots, slashes and brackets ("070-123 45 67"). */
const PHONE = /(?:\p{Nd}[\s\-‐‑‒–—./()]*){7,}/u;

/**
 * NFC, without the white space at either end. Unicode's White_Space, not String#trim: trim also
 * takes U+FEFF, which must be refused rather than quietly dropped.
 */
export function trimmed(raw: string): string {
  return raw.normalize('NFC').replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '');
}

/**
 * Checks a name: NFC-normalised and trimmed, 1..NAME_MAX_LENGTH code points, one visible line, no
 * link, domain name or phone number. The links, domains and numbers are looked for in the NFKC
 * form too, so full-width letters ("ｅｘａｍｐｌｅ．ｃｏｍ") do not slip past.
 */
export function checkName(raw: string): { ok: true; name: string } | { ok: false; problem: NameProblem } {
  const name = trimmed(raw);
  if (name === '') return { ok: false, problem: 'NAME_EMPTY' };
  if (INVISIBLE.test(name)) return { ok: false, problem: 'NAME_INVALID_CHARACTERS' };
  if ([...name].length > NAME_MAX_LENGTH) return { ok: false, problem: 'NAME_TOO_LONG' };
  const compat = name.normalize('NFKC');
  if (LINK.some((re) => re.test(name) || re.test(compat)) || hasDomain(name) || hasDomain(compat)) return { ok: false, problem: 'NAME_HAS_LINK' };
  if (PHONE.test(name) || PHONE.test(compat)) return { ok: false, problem: 'NAME_HAS_PHONE_NUMBER' };
  return { ok: true, name };
}

/** The recipient's name: blank is no name (null); anything else follows checkName. */
export function checkOptionalName(raw: string | null | undefined): { ok: true; name: string | null } | { ok: false; problem: NameProblem } {
  if (raw === null || raw === undefined || trimmed(raw) === '') return { ok: true, name: null };
  return checkName(raw);
}
