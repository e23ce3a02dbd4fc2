// One HEIC decode, run by tinypool in a worker thread of its own (server/media/photo.ts,
// decision 072). Plain JavaScript: a worker thread's first module is loaded by Node itself, before
// any loader such as tsx could turn TypeScript into JavaScript.
//
// The worker is started for this one decode and ended after it (tinypool's isolateWorkers), so the
// WebAssembly memory libheif grew is given back at once. Its memory is bounded three ways:
// - its JavaScript heap, by the pool's resourceLimits;
// - libheif's WebAssembly memory, by `wasmLimitBytes` below (the size the container declared
//   decides it): a file that declares a small picture but carries a huge one cannot grow the
//   decoder's memory past it, the allocation fails and the decode ends with an error;
// - the pixels handed back, by `maxPixels`, checked before they are made.
import { readFile } from 'node:fs/promises';
import decodeHeic from 'heic-decode';
import { kTransferable, kValue, markMovable } from 'tinypool';

const PAGE = 65536;

/** Refuses to grow any WebAssembly memory of this thread past `limit` bytes. */
function limitWasmMemory(limit) {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function limitedGrow(pages) {
    if (this.buffer.byteLength + pages * PAGE > limit) {
      throw new RangeError(`the decoder asked for more than ${Math.round(limit / 1048576)} MB`);
    }
    return grow.call(this, pages);
  };
}

/**
 * @param {{ file: string; maxPixels: number; wasmLimitBytes: number }} job
 * @returns {Promise<{ ok: true; width: number; height: number; data: Uint8ClampedArray } | { ok: false; reason: 'unreadable' | 'too-many-pixels'; message: string }>}
 */
export default async function decode({ file, maxPixels, wasmLimitBytes }) {
  limitWasmMemory(wasmLimitBytes);
  const buffer = await readFile(file);
  let images;
  try {
    images = await decodeHeic.all({ buffer });
  } catch (err) {
    return { ok: false, reason: 'unreadable', message: String(err && err.message) };
  }
  try {
    const first = images[0];
    if (!first) return { ok: false, reason: 'unreadable', message: 'no image in the file' };
    if (first.width * first.height > maxPixels) return { ok: false, reason: 'too-many-pixels', message: `${first.width}×${first.height}` };
    const decoded = await first.decode();
    if (decoded.width * decoded.height > maxPixels) return { ok: false, reason: 'too-many-pixels', message: `${decoded.width}×${decoded.height}` };
    // Handed over, not copied: the pixels leave this thread with their memory.
    const answer = { [kTransferable]: [decoded.data.buffer], [kValue]: { ok: true, width: decoded.width, height: decoded.height, data: decoded.data } };
    markMovable(answer);
    return answer;
  } catch (err) {
    return { ok: false, reason: 'unreadable', message: String(err && err.message) };
  } finally {
    images.dispose();
  }
}
