/**
 * The emoji picker's data: Emojibase's dataset (emojibase-data, MIT), bundled by Vite as a chunk
 * of its own per language and loaded only when the picker opens — served by the app, no
 * third-party origin (decision 014). Swedish names and search words come with it.
 */

/** The fields of an Emojibase entry the picker reads. */
export interface RawEmoji {
  label: string;
  emoji: string;
  tags?: string[];
  group?: number;
  order?: number;
  version: number;
}

export interface EmojiEntry {
  emoji: string;
  label: string;
  /** Label and tags, lower-cased: what a search matches. */
  words: string[];
  group: number;
}

/**
 * Emoji up to version 14.0 (2021): drawn by the phones our users have (iOS 15.4+, Android 12L+).
 * Newer ones would show as empty boxes on older phones, and on the recipient's.
 */
export const EMOJI_MAX_VERSION = 14;

/** Emojibase's groups the picker offers, in its order, with an emoji to show each tab. */
export const EMOJI_GROUPS = [
  { id: 0, icon: '😀' },
  { id: 1, icon: '👋' },
  { id: 3, icon: '🐶' },
  { id: 4, icon: '🍓' },
  { id: 5, icon: '✈️' },
  { id: 6, icon: '🎉' },
  { id: 7, icon: '🎁' },
  { id: 8, icon: '❤️' },
  { id: 9, icon: '🏳️' },
] as const;
export type EmojiGroupId = (typeof EMOJI_GROUPS)[number]['id'];

const offered = new Set<number>(EMOJI_GROUPS.map((g) => g.id));

/** The entries the picker shows: in an offered group (not skin-tone components), not too new, in Unicode's order. */
export function prepareEmoji(data: readonly RawEmoji[]): EmojiEntry[] {
  return data
    .filter((e) => e.group !== undefined && offered.has(e.group) && e.version <= EMOJI_MAX_VERSION)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((e) => ({
      emoji: e.emoji,
      label: e.label,
      words: [e.label, ...(e.tags ?? [])].map((w) => w.toLocaleLowerCase('sv')),
      group: e.group!,
    }));
}

/** Entries whose name or a search word contains every word typed, names that start with it first. */
export function searchEmoji(list: readonly EmojiEntry[], query: string, limit = 96): EmojiEntry[] {
  const terms = query.toLocaleLowerCase('sv').split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [];
  const hits = list.filter((e) => terms.every((t) => e.words.some((w) => w.includes(t))));
  const first = terms[0]!;
  const rank = (e: EmojiEntry) => (e.words[0]!.startsWith(first) ? 0 : e.words.some((w) => w.startsWith(first)) ? 1 : 2);
  return hits
    .map((e, i) => ({ e, i, r: rank(e) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .slice(0, limit)
    .map((h) => h.e);
}

const cache = new Map<string, Promise<EmojiEntry[]>>();

/** The dataset in the shown language (Swedish unless English is chosen), loaded once. */
export function loadEmoji(language: string): Promise<EmojiEntry[]> {
  const lang = language.startsWith('en') ? 'en' : 'sv';
  let found = cache.get(lang);
  if (!found) {
    const raw = lang === 'en' ? import('emojibase-data/en/data.json') : import('emojibase-data/sv/data.json');
    found = raw.then((m) => prepareEmoji(m.default as readonly RawEmoji[]));
    found.catch(() => cache.delete(lang));
    cache.set(lang, found);
  }
  return found;
}
