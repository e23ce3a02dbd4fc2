import type { Size } from './view.ts';

/**
 * The chart as shown (coverage marks, the selected path's step, the selection), as a file that
 * stands alone: the drawn SVG with the page's computed styles written inline (the classes mean
 * nothing outside the page), the whole chart rather than the part in view, and a white ground.
 */

/** The properties the chart's styles set; only these are copied, so the file stays small. */
const STYLED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'color',
  'font-family',
  'font-size',
  'font-weight',
] as const;

const SVG_NS = 'http://www.w3.org/2000/svg';

export function standaloneSvg(svg: SVGSVGElement, size: Size): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, i) => {
    const target = to[i];
    if (!target) return;
    const computed = getComputedStyle(el);
    // Through the CSSOM: the page's CSP refuses style attributes set as text.
    const style = (target as SVGElement).style;
    for (const p of STYLED) {
      const value = computed.getPropertyValue(p);
      if (value !== '') style.setProperty(p, value);
    }
    // Interaction attributes mean nothing in a file.
    for (const attr of ['tabindex', 'role', 'class']) target.removeAttribute(attr);
  });
  // The element is in the SVG namespace, so the serializer writes its xmlns itself.
  copy.setAttribute('width', String(Math.ceil(size.width)));
  copy.setAttribute('height', String(Math.ceil(size.height)));
  copy.setAttribute('viewBox', `0 0 ${size.width} ${size.height}`);
  const ground = document.createElementNS(SVG_NS, 'rect');
  ground.setAttribute('width', '100%');
  ground.setAttribute('height', '100%');
  ground.setAttribute('fill', '#ffffff');
  copy.insertBefore(ground, copy.firstChild);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`;
}

/** That SVG drawn on a canvas of the chart's size (one canvas pixel per chart unit), as PNG. */
export async function svgToPng(svgText: string, size: Size): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the chart could not be drawn as an image'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(size.width);
    canvas.height = Math.ceil(size.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no PNG'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Offer a file for download, as a link with `download` would. */
export function download(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the URL by the time this runs.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
