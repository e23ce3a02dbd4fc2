import { vi } from 'vitest';
import type { Voucher } from '../../../contract/voucher.ts';
import { all, ids, redeemedNow, redeemedPart, undone } from '../../fixtures/vouchers.ts';

/**
 * The voucher calls answered like the API (API.md "Voucher", GET /greetie/{id}/vouchers), over a
 * stubbed fetch: every call is recorded; `hold` makes matching calls wait until released.
 */
export type Call = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Record<string, string> };

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const MERCHANT_CODE = 'KANEL1';

export function fakeVoucherServer(initial: Voucher[] = all) {
  let vouchers = initial.map((v) => ({ ...v }));
  const calls: Call[] = [];
  const held: { match: (c: Call) => boolean; waiting: (() => void)[] }[] = [];
  /** Overrides by "METHOD path": the answer for that call instead of the real one. */
  const overrides = new Map<string, (c: Call) => Response>();
  let qrCount = 0;

  const real = (c: Call): Response => {
    const find = (id: string | null) => vouchers.find((v) => v.id === id);
    if (c.method === 'GET' && c.path === '/api/voucher') return json(200, vouchers);
    const one = /^\/api\/voucher\/([^/]+)$/.exec(c.path);
    if (c.method === 'GET' && one && one[1] !== 'redeem' && one[1] !== 'redeemed') {
      const v = find(one[1]!);
      return v ? json(200, v) : json(404, { code: 'VOUCHER_NOT_FOUND', message: 'Presentkortet finns inte.' });
    }
    const qr = /^\/api\/voucher\/([^/]+)\/qr$/.exec(c.path);
    if (c.method === 'GET' && qr) {
      const v = find(qr[1]!);
      if (!v) return json(404, { code: 'VOUCHER_NOT_FOUND', message: 'Presentkortet finns inte.' });
      if (v.isRedeemed) return json(409, { code: 'VOUCHER_ALREADY_REDEEMED', message: 'Presentkortet är redan inlöst.' });
      qrCount += 1;
      const letter = (n: number) => 'ABCDEFGHJK'[n % 10]!;
      return json(200, { token: `QRTOKEN${letter(qrCount)}${letter(Math.floor(qrCount / 10))}Z`, expiresAt: new Date(Date.now() + 120_000).toISOString() });
    }
    const greetie = /^\/api\/greetie\/([^/]+)\/vouchers$/.exec(c.path);
    if (c.method === 'GET' && greetie) {
      return greetie[1] === ids.greetie ? json(200, vouchers.filter((v) => v.greetieId === ids.greetie)) : json(404, { code: 'GREETIE_NOT_FOUND', message: 'Greetien finns inte.' });
    }
    if (c.method === 'POST' && c.path === '/api/voucher/redeem') {
      const body = c.body as { voucherId: string; merchantCode: string; amount?: number };
      const v = find(body.voucherId);
      if (!v) return json(404, { code: 'VOUCHER_NOT_FOUND', message: 'Presentkortet finns inte.' });
      if (body.merchantCode.trim().toUpperCase() !== MERCHANT_CODE) return json(400, { code: 'MERCHANT_CODE_WRONG', message: 'Handlarkoden stämmer inte.' });
      if (v.isRedeemed) return json(409, { code: 'VOUCHER_ALREADY_REDEEMED', message: 'Presentkortet är redan inlöst.' });
      if (body.amount !== undefined && v.kind === 'fixed' && body.amount !== v.amount) return json(400, { code: 'AMOUNT_NOT_ALLOWED', message: 'Beloppet går inte.' });
      if (body.amount !== undefined && body.amount > v.balance) return json(409, { code: 'VOUCHER_BALANCE_TOO_LOW', message: 'Saldot räcker inte.' });
      const at = new Date().toISOString();
      return json(200, update(body.amount === undefined ? redeemedNow(v, at) : redeemedPart(v, body.amount, at, crypto.randomUUID())));
    }
    const undo = /^\/api\/voucher\/([^/]+)\/redemptions\/([^/]+)\/undo$/.exec(c.path);
    if (c.method === 'POST' && undo) {
      const v = find(undo[1]!);
      const r = v?.redemptions.find((x) => x.id === undo[2]);
      if (!v || !r) return json(404, { code: 'REDEMPTION_NOT_FOUND', message: 'Inlösen finns inte.' });
      if ((c.body as { merchantCode: string }).merchantCode.trim().toUpperCase() !== MERCHANT_CODE) return json(400, { code: 'MERCHANT_CODE_WRONG', message: 'Handlarkoden stämmer inte.' });
      if (r.undone) return json(409, { code: 'ALREADY_UNDONE', message: 'Redan ångrad.' });
      return json(200, update(undone(v, r.id)));
    }
    if (c.method === 'POST' && c.path === '/api/voucher/redeemed') {
      const v = find(c.query.get('id'));
      if (!v) return json(404, { code: 'VOUCHER_NOT_FOUND', message: 'Presentkortet finns inte.' });
      return json(200, update(redeemedNow(v, new Date().toISOString())));
    }
    return json(404, { code: 'NOT_FOUND', message: 'Det du letar efter finns inte.' });
  };

  function update(v: Voucher): Voucher {
    vouchers = vouchers.map((x) => (x.id === v.id ? v : x));
    return v;
  }

  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    };
    calls.push(call);
    const hold = held.find((h) => h.match(call));
    if (hold) await new Promise<void>((resolve) => hold.waiting.push(resolve));
    const override = overrides.get(`${call.method} ${call.path}`);
    return override ? override(call) : real(call);
  });

  return {
    calls,
    /** The calls to the API, as "METHOD path" (the voucher page's QR tokens left out: tests/client/voucher/qr.test.tsx counts those). */
    asked: () =>
      calls.filter((c) => (c.path.startsWith('/api/voucher') || c.path.includes('/vouchers')) && !c.path.endsWith('/qr')).map((c) => `${c.method} ${c.path}`),
    answer: (key: string, make: (c: Call) => Response) => overrides.set(key, make),
    /** Calls matching wait until `release()`. */
    hold(match: (c: Call) => boolean) {
      const h = { match, waiting: [] as (() => void)[] };
      held.push(h);
      return {
        release: () => {
          held.splice(held.indexOf(h), 1);
          for (const w of h.waiting) w();
        },
      };
    },
  };
}
