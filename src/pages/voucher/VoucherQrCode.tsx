import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { button } from '../../components/ui.css.ts';
import { useVoucherQr } from './useVoucherQr.ts';
import * as css from './qr.css.ts';
import * as page from './voucher.css.ts';

/** The token as it is read aloud or typed: two groups of five ("ABCDE FGHJK"). */
export function spacedToken(token: string): string {
  return token.replace(/(.{5})(?=.)/g, '$1 ');
}

/** The QR's modules as one SVG path (a 1×1 square per dark module), and its size with the quiet zone. */
interface QrPicture {
  path: string;
  size: number;
}

const QUIET = 4;

/**
 * The QR picture of `text`, drawn from the modules `qrcode` computes. The library is loaded when a
 * QR is first shown (a chunk of its own, out of the first load; decision 107).
 */
function useQrPicture(text: string | null): QrPicture | null {
  const [picture, setPicture] = useState<{ text: string; picture: QrPicture } | null>(null);
  useEffect(() => {
    if (text === null) return;
    let live = true;
    void import('qrcode').then(({ create }) => {
      const { modules } = create(text, { errorCorrectionLevel: 'M' });
      let path = '';
      for (let y = 0; y < modules.size; y += 1) {
        for (let x = 0; x < modules.size; x += 1) if (modules.get(y, x)) path += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
      }
      if (live) setPicture({ text, picture: { path, size: modules.size + 2 * QUIET } });
    });
    return () => {
      live = false;
    };
  }, [text]);
  return picture !== null && picture.text === text ? picture.picture : null;
}

/**
 * An in-store voucher's QR for the till (machines/voucherQr.ts): the staff scan it, or type the
 * token under it. Renewed before it runs out and when the page is shown again.
 */
export function VoucherQrCode({ voucherId }: { voucherId: string }) {
  const { t } = useTranslation('voucher');
  const qr = useVoucherQr(voucherId);
  const token = qr.qr?.token ?? null;
  const picture = useQrPicture(token);
  if (qr.screen === 'failed') {
    return (
      <div className={page.alert}>
        {/* A status, not an alert: the merchant code still works, so nothing here stops the customer. */}
        <p role="status" className={page.muted}>
          {t('qr.failed', { message: qr.failure?.message ?? '' }).trim()}
        </p>
        <button type="button" className={button} onClick={qr.retry}>
          {t('qr.retry')}
        </button>
      </div>
    );
  }
  return (
    <figure className={css.box} aria-busy={qr.screen !== 'showing'}>
      {picture ? (
        <svg
          className={css.code}
          viewBox={`0 0 ${picture.size} ${picture.size}`}
          role="img"
          aria-label={t('qr.label')}
          shapeRendering="crispEdges"
          data-testid="voucher-qr"
        >
          <rect width={picture.size} height={picture.size} fill="#ffffff" />
          <path d={picture.path} fill="#000000" />
        </svg>
      ) : (
        <div className={css.placeholder} aria-hidden="true" />
      )}
      {token !== null ? (
        <p className={css.token} aria-label={t('qr.tokenLabel', { token: token.split('').join(' ') })} data-testid="voucher-qr-token">
          {spacedToken(token)}
        </p>
      ) : (
        <p role="status" className={css.caption}>
          {t('qr.loading')}
        </p>
      )}
      <figcaption className={css.caption}>{t('qr.caption')}</figcaption>
    </figure>
  );
}
