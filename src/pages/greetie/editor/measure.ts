import { useLayoutEffect, useState, type RefObject } from 'react';
import type { Size } from './bounds.ts';

/** A layer's size and its elements' untransformed sizes, by element key, in pixels. */
export interface Measured {
  frame: Size;
  boxes: ReadonlyMap<string, Size>;
}

/** What the page has laid out now; null while the layer has no size (not shown, or no layout at all). */
export function measureLayer(layer: HTMLElement): Measured | null {
  const frame = { width: layer.clientWidth, height: layer.clientHeight };
  if (!(frame.width > 0) || !(frame.height > 0)) return null;
  const boxes = new Map<string, Size>();
  for (const child of layer.querySelectorAll<HTMLElement>(':scope > [data-element-key]')) {
    boxes.set(child.dataset.elementKey!, { width: child.offsetWidth, height: child.offsetHeight });
  }
  return { frame, boxes };
}

const sameSize = (a: Size | undefined, b: Size | undefined) => a?.width === b?.width && a?.height === b?.height;

function same(a: Measured | null, b: Measured | null): boolean {
  if (a === b) return true;
  if (!a || !b || !sameSize(a.frame, b.frame) || a.boxes.size !== b.boxes.size) return false;
  for (const [key, box] of a.boxes) if (!sameSize(box, b.boxes.get(key))) return false;
  return true;
}

/**
 * The layer measured after every layout that can change it: when its elements come or go (`keys`),
 * and whenever the layer or one of them changes size (the window, a font or a picture that loaded,
 * a text that grew), through a ResizeObserver.
 */
export function useMeasured(layerRef: RefObject<HTMLElement | null>, keys: string): Measured | null {
  const [measured, setMeasured] = useState<Measured | null>(null);
  useLayoutEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    const measure = () => {
      const next = measureLayer(layer);
      setMeasured((prev) => (same(prev, next) ? prev : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(layer);
    for (const child of layer.querySelectorAll(':scope > [data-element-key]')) observer.observe(child);
    return () => observer.disconnect();
  }, [layerRef, keys]);
  return measured;
}
