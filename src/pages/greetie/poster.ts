/**
 * A video's poster, taken in the browser: the frame a moment in, drawn to a canvas as a JPEG
 * (POST /greetie/{id}/media takes it as `poster`). The server makes a plain one when there is
 * none, so anything that goes wrong here (a codec the browser cannot play, no canvas) answers null.
 */
export const POSTER_MAX_SIDE = 1280;
const POSTER_AT_SECONDS = 0.5;
const POSTER_TIMEOUT_MS = 8000;

export async function posterOf(video: Blob): Promise<Blob | null> {
  if (typeof document === 'undefined' || typeof URL.createObjectURL !== 'function') return null;
  const url = URL.createObjectURL(video);
  const el = document.createElement('video');
  el.muted = true;
  el.playsInline = true;
  el.preload = 'auto';
  try {
    return await new Promise<Blob | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), POSTER_TIMEOUT_MS);
      const done = (blob: Blob | null) => {
        clearTimeout(timer);
        resolve(blob);
      };
      el.addEventListener('error', () => done(null), { once: true });
      el.addEventListener(
        'loadeddata',
        () => {
          // A WebM recorded in a browser may say it lasts Infinity: the first frame then.
          el.currentTime = Number.isFinite(el.duration) ? Math.min(POSTER_AT_SECONDS, el.duration / 2) : 0;
        },
        { once: true },
      );
      el.addEventListener(
        'seeked',
        () => {
          const k = Math.min(1, POSTER_MAX_SIDE / Math.max(el.videoWidth, el.videoHeight, 1));
          const canvas = document.createElement('canvas');
          canvas.width = Math.max(1, Math.round(el.videoWidth * k));
          canvas.height = Math.max(1, Math.round(el.videoHeight * k));
          const ctx = canvas.getContext('2d');
          if (!ctx || !el.videoWidth) return done(null);
          ctx.drawImage(el, 0, 0, canvas.width, canvas.height);
          canvas.toBlob((blob) => done(blob && blob.size > 0 ? blob : null), 'image/jpeg', 0.85);
        },
        { once: true },
      );
      el.src = url;
    });
  } finally {
    el.removeAttribute('src');
    el.load();
    URL.revokeObjectURL(url);
  }
}
