import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { CameraProblem } from '../../../../machines/tillMode.ts';
import { loadQrDetector, type QrDetector } from './detector.ts';
import * as css from './till.css.ts';

/** How often a frame is read for a QR code. */
const READ_EVERY_MS = 200;

/** Why getUserMedia failed, in the machine's words: the person (or a policy) said no, or there is no camera. */
function problemOf(error: unknown): CameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'unavailable';
}

/**
 * The back camera in a <video>, read for a QR code a few times a second while shown. It reports
 * what it read (`onRead`, the same text once until another appears) or why there is no camera
 * (`onFailed`); it stops the camera when it goes away.
 */
export function Scanner({ onRead, onFailed, loadDetector = loadQrDetector }: { onRead: (text: string) => void; onFailed: (reason: CameraProblem) => void; loadDetector?: () => Promise<QrDetector> }) {
  const { t } = useTranslation('till');
  const video = useRef<HTMLVideoElement>(null);
  const report = useRef({ onRead, onFailed });
  useEffect(() => {
    report.current = { onRead, onFailed };
  });
  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = '';
    const detector = loadDetector();
    void (async () => {
      if (!navigator.mediaDevices?.getUserMedia) return report.current.onFailed('unavailable');
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch (error) {
        if (!stopped) report.current.onFailed(problemOf(error));
        return;
      }
      if (stopped) return stream.getTracks().forEach((track) => track.stop());
      const el = video.current;
      if (!el) return;
      el.srcObject = stream;
      try {
        await el.play();
      } catch {
        // Autoplay refused or not supported: the frames are read all the same where there are any.
      }
      let reader: QrDetector;
      try {
        reader = await detector;
      } catch {
        if (!stopped) report.current.onFailed('unavailable');
        return;
      }
      const read = async () => {
        if (stopped) return;
        try {
          const [code] = await reader.detect(el);
          if (!stopped && code && code.rawValue !== last) {
            last = code.rawValue;
            report.current.onRead(code.rawValue);
          }
        } catch {
          // A frame that could not be read (the video not playing yet): the next one may.
        }
        if (!stopped) timer = setTimeout(() => void read(), READ_EVERY_MS);
      };
      void read();
    })();
    return () => {
      stopped = true;
      clearTimeout(timer);
      void detector.then((reader) => reader.close()).catch(() => undefined);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [loadDetector]);
  return (
    <div className={css.scanner}>
      <video ref={video} className={css.video} muted playsInline aria-label={t('scan.video')} data-testid="scanner-video" />
      <p className={css.scanHint}>{t('scan.hint')}</p>
    </div>
  );
}
