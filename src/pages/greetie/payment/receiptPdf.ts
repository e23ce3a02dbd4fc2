import { PDFDocument, StandardFonts, rgb, type PDFFont } from 'pdf-lib';

/**
 * "Spara kvitto": the receipt as a PDF (decision 117), made in the browser with pdf-lib. This
 * module is only ever imported on the button's click (`import('./receiptPdf.ts')`), so pdf-lib
 * never weighs on a first load. The standard Helvetica font's WinAnsi encoding covers Swedish
 * (å ä ö é); a character it cannot write (a narrow space from a date format, an emoji in a product
 * name) becomes a plain space or "?" rather than failing the whole receipt.
 */

export interface ReceiptPdfData {
  /** The document's words, in the page's language. */
  labels: { title: string; orderNumber: string; date: string; seller: string; recipient: string; bought: string; total: string; paidWith: string };
  orderNumber: string;
  /** Already formatted for the page's language. */
  paidAt: string;
  seller: string | null;
  recipient: string | null;
  items: { name: string; merchant: string; amount: string }[];
  total: string;
  paymentMethod: string;
}

/** What the font can write: spaces of every width become a space, anything else unknown a "?". */
function writable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text.replace(/[\u2000-\u200b\u202f\u205f\u3000]/g, ' ')) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

export async function receiptPdf(data: ReceiptPdfData): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${data.labels.title} ${data.orderNumber}`);
  doc.setAuthor('Greetie');
  doc.setCreator('Greetie');
  const page = doc.addPage([595.28, 841.89]); // A4
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const ink = rgb(0.12, 0.12, 0.16);
  const muted = rgb(0.38, 0.38, 0.44);
  const left = 56;
  const right = 595.28 - 56;
  let y = 841.89 - 72;

  const text = (s: string, x: number, size: number, font = regular, color = ink) => page.drawText(writable(font, s), { x, y, size, font, color });
  const rightAligned = (s: string, size: number, font = regular) => {
    const t = writable(font, s);
    page.drawText(t, { x: right - font.widthOfTextAtSize(t, size), y, size, font, color: ink });
  };
  const rule = () => page.drawLine({ start: { x: left, y: y + 8 }, end: { x: right, y: y + 8 }, thickness: 0.5, color: muted });

  text('Greetie', left, 22, bold);
  y -= 34;
  text(data.labels.title, left, 16, bold);
  y -= 28;
  const facts: [string, string | null][] = [
    [data.labels.orderNumber, data.orderNumber],
    [data.labels.date, data.paidAt],
    [data.labels.seller, data.seller],
    [data.labels.recipient, data.recipient],
    [data.labels.paidWith, data.paymentMethod],
  ];
  for (const [label, value] of facts) {
    if (!value) continue;
    text(label, left, 11, bold, muted);
    text(value, left + 120, 11);
    y -= 18;
  }
  y -= 14;
  text(data.labels.bought, left, 13, bold);
  y -= 22;
  for (const item of data.items) {
    rule();
    text(item.name, left, 11);
    rightAligned(item.amount, 11);
    y -= 14;
    text(item.merchant, left, 9, regular, muted);
    y -= 20;
  }
  rule();
  y -= 6;
  text(data.labels.total, left, 13, bold);
  rightAligned(data.total, 13, bold);
  return doc.save();
}

/** Makes the PDF and hands it to the browser as a download named after the order number. */
export async function downloadReceipt(data: ReceiptPdfData): Promise<void> {
  const bytes = await receiptPdf(data);
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/pdf' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `greetie-kvitto-${data.orderNumber}.pdf`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
