import type { TextColor, TextFont } from '../../../../contract/catalogue.ts';
import type { ContentElement } from '../../../../contract/greetie.ts';

/**
 * The greetie's one shape, from the upload's preview through the editor and the review to the
 * recipient's screen and the flattened overlay: 4:5, the photo or video covering it (cut evenly
 * from both sides when its own shape differs). An element's place is a fraction of this frame, so
 * what is arranged in the editor lands on the same spot of the same picture everywhere.
 */
export const GREETIE_FRAME = { width: 1080, height: 1350 } as const;
/** The frame's shape as CSS's aspect-ratio reads it. */
export const FRAME_ASPECT = `${GREETIE_FRAME.width} / ${GREETIE_FRAME.height}`;

/**
 * How big an element is and where it sits, as fractions of the frame's width, shared by the live
 * layer (CSS, in container units: 1 = 100cqw) and the flattened overlay (canvas, in pixels), so
 * the greetie view and its thumbnail show the same thing.
 *
 * Every element is drawn centred on (x, y), turned by `rotation` degrees clockwise and scaled by
 * `scale`, in that order, like CSS's `translate(-50%, -50%) rotate() scale()`.
 */
export const BASE_SIZE = {
  /** An emoji's font size. */
  emoji: 0.16,
  /** A sticker's width and height (stickers are square). */
  sticker: 0.26,
  /** An animation's width and height (animations are square). */
  lottie: 0.36,
  /** A picture's width; its height follows the image. */
  picture: 0.36,
  /** A text's font size. */
  text: 0.075,
} as const;

/** A text wraps at this width (a fraction of the frame) before its scale; lines are 1.2 em apart. */
export const TEXT_MAX_WIDTH = 0.8;
export const TEXT_LINE_HEIGHT = 1.2;

export const DEFAULT_TEXT_FONT: TextFont = 'quicksand';
export const DEFAULT_TEXT_COLOR: TextColor = '#FFFFFF';

/** CSS font families and weights per catalogue font; each face is served by the app (fontsource). */
export const FONT_FAMILIES: Record<TextFont, { family: string; weight: number }> = {
  quicksand: { family: '"Quicksand", system-ui, sans-serif', weight: 700 },
  serif: { family: '"Lora", Georgia, "Times New Roman", serif', weight: 600 },
  handwriting: { family: '"Caveat", "Segoe Script", cursive', weight: 700 },
};

export function textStyleOf(el: ContentElement): { font: TextFont; color: TextColor } {
  const style = el.type === 'text' ? el.style : undefined;
  return { font: style?.font ?? DEFAULT_TEXT_FONT, color: style?.color ?? DEFAULT_TEXT_COLOR };
}

/** A light text gets a dark shadow and a dark text a light one, so it reads on any photo. */
export function textShadowColor(color: TextColor): string {
  const n = parseInt(color.slice(1), 16);
  const luminance = (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  return luminance > 0.6 ? 'rgba(0, 0, 0, 0.45)' : 'rgba(255, 255, 255, 0.6)';
}

/** Where an element is drawn on a frame of `width` × `height` pixels. */
export interface Placement {
  /** Centre, px. */
  cx: number;
  cy: number;
  /** Clockwise, radians. */
  angle: number;
  scale: number;
  /** The element's natural size before `scale`: font size (text, emoji) or box width, px. */
  base: number;
}

export function placement(el: ContentElement, width: number, height: number): Placement {
  return {
    cx: el.x * width,
    cy: el.y * height,
    angle: (el.rotation * Math.PI) / 180,
    scale: el.scale,
    base: BASE_SIZE[el.type] * width,
  };
}

/**
 * A text's lines: the user's own line breaks, and within each a break before a word that would
 * pass `maxWidth` (a word longer than the line is cut where it overflows, like CSS's
 * `overflow-wrap: anywhere`).
 */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/(?<=\s)/)) {
      const candidate = line + word;
      if (line === '' || measure(candidate.trimEnd()) <= maxWidth) {
        line = candidate;
      } else {
        lines.push(line.trimEnd());
        line = word;
      }
      // A single word wider than the line: cut it, character by character.
      while (measure(line.trimEnd()) > maxWidth && [...line.trimEnd()].length > 1) {
        const chars = [...line];
        let cut = chars.length - 1;
        while (cut > 1 && measure(chars.slice(0, cut).join('')) > maxWidth) cut -= 1;
        lines.push(chars.slice(0, cut).join(''));
        line = chars.slice(cut).join('');
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** The overlay's pixel size: the frame's aspect, the longest side at most `maxSide`. */
export function overlaySize(width: number, height: number, maxSide = 2048): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) throw new RangeError('overlay size must be positive');
  const k = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k)) };
}
