/**
 * The app's own catalogue of decorations for a greetie's content. The server accepts a
 * `sticker` or `lottie` content element only when its `value` is one of these ids; the client's
 * pickers offer exactly these. The artwork is original and served by the app itself:
 * stickers at `/stickers/<id>.svg`, animations at `/lottie/<id>.json` (public/).
 */
export const STICKERS = ['heart', 'star', 'balloon', 'gift', 'cake', 'flower', 'sun', 'party-hat'] as const;
export type StickerId = (typeof STICKERS)[number];

export const ANIMATIONS = ['confetti', 'hearts', 'sparkles', 'balloons'] as const;
export type AnimationId = (typeof ANIMATIONS)[number];

/** The fonts a text element may use (each served by the app; `quicksand` is the theme's). */
export const TEXT_FONTS = ['quicksand', 'serif', 'handwriting'] as const;
export type TextFont = (typeof TEXT_FONTS)[number];

/** The colours a text element may use: the theme's palette, as #RRGGBB. */
export const TEXT_COLORS = ['#FFFFFF', '#212B36', '#ED5AA4', '#7635DC', '#00AB55', '#FFC107', '#1890FF'] as const;
export type TextColor = (typeof TEXT_COLORS)[number];

export function stickerUrl(id: StickerId): string {
  return `/stickers/${id}.svg`;
}

export function animationUrl(id: AnimationId): string {
  return `/lottie/${id}.json`;
}
