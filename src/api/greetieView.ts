import { api, isApiError, type ApiClient } from './client.ts';
import type { Greetie, PublicGreetie } from '../../contract/greetie.ts';
import { forgetOnNewPage } from '../pageMemory.ts';

/**
 * The calls that open a greetie (API.md "Greetie": byRef, read by id). HTTP only. A greetie's
 * vouchers are the voucher store's (src/api/voucher.ts), so a redeem shows on the greetie too.
 *
 * The read by reference is asked once per opening (decision 132): it may start before the view's
 * code has loaded (`startByRefRead`, from the route), and readers asking while one is on its way
 * share it; a reader stopped before it heard the answer hands it to the next. It marks the greetie
 * viewed, so it is never asked twice for nothing.
 */

interface Shared {
  /** The bearer token it was asked with ('' for a visitor): only a reader with the same one may take it. */
  token: string;
  read: Promise<PublicGreetie>;
}

interface Reads {
  /** Started before the page asked, kept until a reader takes it (once). */
  early: Map<string, Shared>;
  /** On their way: a second reader while one is (an actor restarted by React, say) shares it. */
  inFlight: Map<string, Shared>;
}
let byClient = new WeakMap<ApiClient, Reads>();
forgetOnNewPage(() => (byClient = new WeakMap()));

function readsOf(client: ApiClient): Reads {
  let reads = byClient.get(client);
  if (!reads) byClient.set(client, (reads = { early: new Map(), inFlight: new Map() }));
  return reads;
}

function ask(refId: string, client: ApiClient, token: string | null): Shared {
  const { inFlight } = readsOf(client);
  const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
  const shared = { token: token ?? '', read: client.get<PublicGreetie>('/api/greetie/byRef', { query: { refId }, headers }) };
  inFlight.set(refId, shared);
  const done = () => {
    if (inFlight.get(refId) === shared) inFlight.delete(refId);
  };
  shared.read.then(done, done);
  return shared;
}

/**
 * The shared answer, for a reader who may stop listening (`signal`): an aborted reader never hears
 * back, as the client's own calls. `dropped` runs when it stops before it has heard the answer.
 */
function listen<T>(read: Promise<T>, signal?: AbortSignal, dropped?: () => void): Promise<T> {
  if (!signal) return read;
  return new Promise<T>((resolve, reject) => {
    let heard = false;
    signal.addEventListener('abort', () => heard || dropped?.(), { once: true });
    read.then(
      (v) => signal.aborted || ((heard = true), resolve(v)),
      (e: unknown) => signal.aborted || ((heard = true), reject(e)),
    );
  });
}

/**
 * Starts GET /greetie/byRef for `refId` now, as the holder of `token` (null: a visitor), for the
 * view to take once its code has loaded. The caller must be sure the page will ask as that same
 * person (src/app/routes.tsx: a live token in this tab, or no sign-in at all).
 */
export function startByRefRead(refId: string, token: string | null, client: ApiClient = api): void {
  const { early, inFlight } = readsOf(client);
  // One on its way already serves; one that answered and was never taken is stale: asked anew.
  if (inFlight.has(refId)) return;
  early.set(refId, ask(refId, client, token));
}

/** GET /greetie/byRef?refId=: the public view of a delivered greetie (marks it viewed unless the caller is its sender). */
export function getGreetieByRef(refId: string, signal?: AbortSignal, client: ApiClient = api): Promise<PublicGreetie> {
  const { early, inFlight } = readsOf(client);
  const token = client.getToken() ?? '';
  const started = early.get(refId);
  early.delete(refId);
  if (started && started.token === token) {
    // A token the server no longer takes (revoked since): the session has been settled by now; ask again.
    const read = started.read.catch((e: unknown) => {
      if (isApiError(e) && e.status === 401) return ask(refId, client, token || null).read;
      throw e;
    });
    // A reader stopped before it heard the answer (an actor React stops and starts again, as
    // StrictMode does in development) hands the read back: the next reader takes it, not a new ask.
    const handBack = () => early.has(refId) || early.set(refId, started);
    return listen(read, signal, handBack);
  }
  const going = inFlight.get(refId);
  return listen(going && going.token === token ? going.read : ask(refId, client, token || null).read, signal);
}

/** GET /greetie/{id} as its sender or recipient; the recipient's read marks it viewed unless `markAsViewed` is false. */
export function readGreetie(id: string, markAsViewed: boolean, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.get<Greetie>(`/api/greetie/${encodeURIComponent(id)}`, { query: { markAsViewed }, signal });
}
