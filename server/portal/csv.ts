import { Readable } from 'node:stream';
import { stringify, type Stringifier } from 'csv-stringify';
import type { RedemptionListRow } from './queries.ts';

/**
 * The settlement file (API.md "Merchant portal", decision 103): what Swedish Excel opens as it
 * is — UTF-8 with a BOM, `;` between fields, CRLF between rows, a Swedish header row, kronor with
 * a decimal comma ("149,00"). One row per redemption, undone ones too (`Ångrad`: Ja), so the file
 * matches the till's own records; the sum of the rows not undone is the summary's redeemed
 * amount. Written by csv-stringify (quoting by RFC 4180, and a text that starts like a formula is
 * escaped, as a spreadsheet would otherwise run it).
 */

export const SETTLEMENT_COLUMNS = [
  { key: 'time', header: 'Inlöst (svensk tid)' },
  { key: 'redemptionId', header: 'Inlösen-id' },
  { key: 'voucherId', header: 'Presentkort-id' },
  { key: 'product', header: 'Produkt' },
  { key: 'amount', header: 'Belopp' },
  { key: 'via', header: 'Sätt' },
  { key: 'undone', header: 'Ångrad' },
] as const;

/** Öre as kronor with a decimal comma and no grouping: 14900 → "149,00". */
export function kronor(ore: number): string {
  const sign = ore < 0 ? '-' : '';
  const abs = Math.abs(ore);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

function toRecord(r: RedemptionListRow): Record<(typeof SETTLEMENT_COLUMNS)[number]['key'], string> {
  return {
    time: r.local_time,
    redemptionId: r.id,
    voucherId: r.voucher_id,
    product: r.product_name,
    amount: kronor(r.amount),
    via: r.via === 'qr' ? 'QR' : 'kod',
    undone: r.undone ? 'Ja' : 'Nej',
  };
}

/** The file as a stream, from the redemptions as they are read. */
export function settlementCsv(rows: AsyncIterable<RedemptionListRow>): Stringifier {
  const csv = stringify({
    bom: true,
    delimiter: ';',
    record_delimiter: 'windows',
    header: true,
    columns: SETTLEMENT_COLUMNS.map((c) => ({ key: c.key, header: c.header })),
    escape_formulas: true,
  });
  const source = Readable.from(
    (async function* () {
      for await (const r of rows) yield toRecord(r);
    })(),
  );
  source.on('error', (err) => csv.destroy(err));
  return source.pipe(csv);
}
