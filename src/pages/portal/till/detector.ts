/**
 * The QR reader for till mode's camera (decision 108): `qr-scanner` (Nimiq). Its engine is the
 * browser's own BarcodeDetector where the browser has one that reads QR codes (Chrome on Android,
 * Safari), else its own decoder (a jsQR port) in a Web Worker made from a blob, which the CSP's
 * `worker-src 'self' blob:` allows; no WebAssembly, so `script-src` stays `'self'`. Debian's
 * Chromium and Firefox have no BarcodeDetector. The library loads only here, when the camera
 * starts (never in the first load), from our own origin.
 */

/** What till mode needs of a reader: the QR codes seen in a video frame, as text; `close` ends its worker. */
export interface QrDetector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
  close(): void;
}

/** The reader: qr-scanner with its best engine for this browser. */
export async function loadQrDetector(): Promise<QrDetector> {
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
