import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { receiptPdf, type ReceiptPdfData } from '../../../src/pages/greetie/payment/receiptPdf.ts';

/**
 * "Spara kvitto" (decision 117): the PDF is read back — its content streams inflated, the text
 * each `Tj` shows decoded from WinAnsi (Latin-1 for å ä ö) — so the test sees the words a PDF
 * reader would, not that some bytes exist.
 */
function textOf(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const shown: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let body: string;
    try {
      body = inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      body = m[1]!;
    }
    for (const t of body.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) shown.push(Buffer.from(t[1]!, 'hex').toString('latin1'));
  }
  return shown.join('\n');
}

const data: ReceiptPdfData = {
  labels: { title: 'Kvitto', orderNumber: 'Ordernummer', date: 'Betalt', seller: 'Säljare', recipient: 'Till', bought: 'Det här köpte du', total: 'Totalt', paidWith: 'Betalsätt' },
  orderNumber: 'G-100123',
  paidAt: '27 nov. 2026 22:40',
  seller: 'Greetie AB, Org.nr 559000-0000',
  recipient: 'Åsa Öberg (+46701234567)',
  items: [
    { name: 'Fika för två åäö', merchant: 'Café Kanelbullen', amount: '149\u00a0kr' },
    { name: 'Presentkort 🎁', merchant: 'Bokhandeln', amount: '1\u00a0000\u00a0kr' },
  ],
  total: '1\u00a0149\u00a0kr',
  paymentMethod: 'Swish',
};

describe('the receipt PDF', () => {
  it('is a one-page PDF whose text has Kvitto, the order number, the items, the total, Swish and å ä ö intact', async () => {
    const bytes = await receiptPdf(data);
    expect(Buffer.from(bytes.slice(0, 5)).toString('latin1')).toBe('%PDF-');
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe('Kvitto G-100123');
    const text = textOf(bytes);
    for (const expected of ['Greetie', 'Kvitto', 'Ordernummer', 'G-100123', '27 nov. 2026 22:40', 'Fika för två åäö', 'Café Kanelbullen', '149\u00a0kr', 'Totalt', '1\u00a0149\u00a0kr', 'Betalsätt', 'Swish', 'Åsa Öberg (+46701234567)', 'Säljare', 'Det här köpte du']) {
      expect(text).toContain(expected);
    }
  });

  it('writes a character the font has not got as "?" instead of failing the receipt', async () => {
    const text = textOf(await receiptPdf(data));
    expect(text).toContain('Presentkort ?');
    expect(text).not.toContain('Presentkort ??');
  });
});
