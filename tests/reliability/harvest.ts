import type { Operation } from './openapi.ts';
import type { Send } from './target.ts';
import { isUuid } from '../../contract/common.ts';

function collect(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 6) return;
  if (typeof value === 'string') {
    if (isUuid(value)) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value.slice(0, 50)) collect(v, out, depth + 1);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) collect(v, out, depth + 1);
  }
}

/**
 * Ids that exist: every UUID in the answers of the GET operations that need no path parameter,
 * read as a visitor and as each signed-in user. The fuzzer and the matrix use them so requests
 * reach real rows (a merchant that exists, a user's own things), not only "not found".
 */
export async function harvestIds(send: Send, ops: Operation[], tokens: string[]): Promise<string[]> {
  const out = new Set<string>();
  const gets = ops.filter((o) => o.method === 'GET' && o.pathParams.length === 0 && !o.path.includes('openapi'));
  for (const op of gets) {
    for (const token of [undefined, ...tokens]) {
      const res = await send({ method: 'GET', url: op.path, headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (res.status !== 200) continue;
      try {
        collect(JSON.parse(res.body), out);
      } catch {
        /* not JSON */
      }
    }
  }
  // One level deeper: GET /x/{id}/y for the ids found (e.g. a merchant's products).
  const nested = ops.filter((o) => o.method === 'GET' && o.pathParams.length === 1);
  for (const op of nested) {
    for (const id of [...out].slice(0, 5)) {
      const res = await send({ method: 'GET', url: op.path.replace(/\{[^}]+\}/, id) });
      if (res.status !== 200) continue;
      try {
        collect(JSON.parse(res.body), out);
      } catch {
        /* not JSON */
      }
    }
  }
  return [...out];
}
