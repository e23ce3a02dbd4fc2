import { vi } from 'vitest';
import type { PortalMerchant, PortalRedemption, PortalSummary } from '../../../contract/portal.ts';

/**
 * The portal's server for page tests: fetch, stubbed at the edge, answering as API.md says
 * (the Link header for a next page, the CSV with a BOM). Each answer can be replaced per test;
 * every call is recorded with its method, path, query and headers.
 */

export const KANELBULLEN = '4d0e1a2b-0000-4000-8000-000000000001';
export const BOKHANDELN = '4d0e1a2b-0000-4000-8000-000000000002';
export const owner: PortalMerchant = { id: KANELBULLEN, name: 'Café Kanelbullen', role: 'owner' };
export const staff: PortalMerchant = { id: KANELBULLEN, name: 'Café Kanelbullen', role: 'staff' };
export const bookshop: PortalMerchant = { id: BOKHANDELN, name: 'Bokhandeln', role: 'staff' };

const figure = (count: number, amount: number) => ({ count, amount });
export const todaySummary: PortalSummary = { issued: figure(1, 14900), redeemed: figure(2, 19400), outstanding: figure(12, 358000), expired: figure(3, 45000) };
export const monthSummary: PortalSummary = { issued: figure(9, 200000), redeemed: figure(14, 123450), outstanding: figure(12, 358000), expired: figure(3, 45000) };

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const CSV_TEXT =
  '\uFEFFInlöst (svensk tid);Inlösen-id;Presentkort-id;Produkt;Belopp;Sätt;Ångrad\r\n2026-11-27 14:05:00;r1;v1;Fika för två;149,00;QR;Nej\r\n';

export interface PortalServer {
  calls: Call[];
  merchants: () => Response | Promise<Response>;
  summary: (call: Call) => Response | Promise<Response>;
  redemptions: (call: Call) => Response | Promise<Response>;
  csv: (call: Call) => Response | Promise<Response>;
  code: (call: Call) => Response | Promise<Response>;
}

/** A page of redemptions, with `Link: <…&cursor=…>; rel="next"` when `next` is given. */
export function page(items: PortalRedemption[], next: string | null = null): Response {
  return json(200, items, next ? { link: `</api/portal/merchants/${KANELBULLEN}/redemptions?limit=50&cursor=${next}>; rel="next"` } : {});
}

export function installPortalServer(merchants: PortalMerchant[] = [owner]): PortalServer {
  const server: PortalServer = {
    calls: [],
    merchants: () => json(200, merchants),
    summary: (call) => json(200, call.query.get('to') && call.query.get('from')?.endsWith('-01') && call.query.get('to')!.endsWith('-01') ? monthSummary : todaySummary),
    redemptions: () => page([]),
    csv: () => new Response(CSV_TEXT, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
    code: () => json(200, { merchantCode: 'K7PQ42XM' }),
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://app');
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const call: Call = { method: init?.method ?? 'GET', path: url.pathname, query: url.searchParams, headers };
    server.calls.push(call);
    const m = /^\/api\/portal\/merchants\/([^/]+)\/(summary|redemptions|redemptions\.csv|code)$/.exec(call.path);
    if (call.path === '/api/portal/merchants') return server.merchants();
    if (m && m[2] === 'summary') return server.summary(call);
    if (m && m[2] === 'redemptions') return server.redemptions(call);
    if (m && m[2] === 'redemptions.csv') return server.csv(call);
    if (m && m[2] === 'code' && call.method === 'POST') return server.code(call);
    if (call.path === '/api/mobileuser/notifications') return json(200, []);
    return json(404, { message: 'Det du letar efter finns inte.', code: 'NOT_FOUND' });
  });
  return server;
}
