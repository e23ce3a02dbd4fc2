/**
 * The QR reader for till mode's camera (decision 108): the browser's own BarcodeDetector where it
 * has one that reads QR codes (Chrome on Android, Safari), else `qr-scanner` (Nimiq), whose own
 * decoder (a jsQR port) runs in a Web Worker made from a blob, which the CSP's `worker-src 'self'
 * blob:` allows; no WebAssembly, so `script-src` stays `'self'`. Debian's Chromium and Firefox
 * have no BarcodeDetector. The library loads only here, when the camera starts (never in the
 * first load), from our own origin.
 */

/** What till mode needs of a reader: the QR codes seen in a video frame, as text; `close` ends its worker. */
export interface QrDetector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
  close(): void;
}

interface NativeDetector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
interface NativeDetectorClass {
  new (options: { formats: string[] }): NativeDetector;
  getSupportedFormats(): Promise<string[]>;
}

/** The browser's own BarcodeDetector (the Shape Detection API), when it reads QR codes. */
async function nativeDetector(): Promise<QrDetector | null> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (!Native) return null;
  try {
    if (!(await Native.getSupportedFormats()).includes('qr_code')) return null;
    const detector = new Native({ formats: ['qr_code'] });
    return { detect: (video) => detector.detect(video), close: () => undefined };
  } catch {
    return null;
  }
}

/** The reader: the browser's own BarcodeDetector where it reads QR codes, else qr-scanner (lazily loaded). */
export async function loadQrDetector(): Promise<QrDetector> {
  const native = await nativeDetector();
  if (native) return native;
  const { default: QrScanner } = await import('qr-scanner');
  const engine = await QrScanner.createQrEngine();
  return {
    async detect(video) {
      try {
        const result = await QrScanner.scanImage(video, { qrEngine: engine, returnDetailedScanResult: true });
        return [{ rawValue: result.data }];
      } catch (error) {
        if (error === QrScanner.NO_QR_CODE_FOUND) return [];
        throw error;
      }
    },
    close() {
      if (engine instanceof Worker) engine.terminate();
    },
  };
}
