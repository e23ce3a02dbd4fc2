import QRCode from 'qrcode';

/**
 * What a page shows to pay an m-commerce request: on a phone, a link that opens the
 * Swish app; on a desktop, a QR code the payer scans with the Swish app. Both carry the
 * PaymentRequestToken from the create answer.
 */

/**
 * The app switch: `swish://paymentrequest?token=…&callbackurl=…`, where callbackurl is the page
 * the Swish app returns the payer to (URL-encoded, as Swish's guide asks).
 */
export function swishAppUrl(token: string, returnUrl: string): string {
  return `swish://paymentrequest?token=${encodeURIComponent(token)}&callbackurl=${encodeURIComponent(returnUrl)}`;
}

/**
 * The QR code's content for a payment request token: "D" followed by the token (the prefix the
 * Swish app reads as an m-commerce token, beside "C" for a prefilled payment to a number;
 * decision 080 says where this comes from and what to check in MSS before production).
 */
export function swishQrContent(token: string): string {
  return `D${token}`;
}

/**
 * The QR code as an SVG document, black on white with the standard four-module quiet zone,
 * sized by the page (viewBox only). Medium error correction, as Swish's own generator uses, which
 * also leaves room for the Swish symbol in the centre if a page puts one there.
 */
export async function swishQrSvg(token: string): Promise<string> {
  return QRCode.toString(swishQrContent(token), { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
}
