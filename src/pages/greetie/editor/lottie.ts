import { animationUrl, type AnimationId } from '../../../../contract/catalogue.ts';
import { forgetOnNewPage } from '../../../pageMemory.ts';

/**
 * Lottie, loaded only where an animation is shown: lottie-web's `lottie_light` build (SVG
 * renderer only; no `eval`, no expressions, no web worker unless asked), as its own chunk.
 */
export type Lottie = (typeof import('lottie-web/build/player/lottie_light'))['default'];
export type LottieAnimation = ReturnType<Lottie['loadAnimation']>;

let lottie: Promise<Lottie> | undefined;
export function loadLottie(): Promise<Lottie> {
  lottie ??= import('lottie-web/build/player/lottie_light').then((m) => m.default);
  lottie.catch(() => {
    lottie = undefined;
  });
  return lottie;
}

const data = new Map<AnimationId, Promise<unknown>>();
forgetOnNewPage(() => {
  lottie = undefined;
  data.clear();
});
/** An animation's JSON from /lottie/<id>.json, read once per page (a failed read is tried again). */
export function loadAnimationData(id: AnimationId): Promise<unknown> {
  let found = data.get(id);
  if (!found) {
    found = fetch(animationUrl(id)).then((r) => {
      if (!r.ok) throw new Error(`animation ${id}: HTTP ${r.status}`);
      return r.json() as Promise<unknown>;
    });
    found.catch(() => data.delete(id));
    data.set(id, found);
  }
  // lottie writes into the data it plays, so every player gets its own copy.
  return found.then((d) => structuredClone(d));
}

/** The frame shown when motion is reduced, and drawn in the flattened overlay: the middle one. */
export function stillFrame(anim: Pick<LottieAnimation, 'totalFrames'>): number {
  return Math.floor(anim.totalFrames / 2);
}
