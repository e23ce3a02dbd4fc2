import { describe, expect, it, vi } from 'vitest';
import { createApiClient, isApiError } from '../../../src/api/client.ts';
import { getGreetieByRef, startByRefRead } from '../../../src/api/greetieView.ts';

/**
 * The read by reference marks a greetie viewed, so opening one asks it once (decision 132): the
 * route's early read is what the page's load takes, and readers asking while one is on its way
 * (an actor React restarted) share it. A retry after an answer asks anew.
 */

const greetie = { id: 'g1', refId: 'REF' };

/** A client whose fetch answers each byRef when `answer()` is called, counting the asks and their tokens. */
function slowServer(status = 200) {
  const asks: { auth: string | null; answer: () => void }[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(
    (_url, init) =>
      new Promise<Response>((resolve) => {
        const headers = new Headers(init?.headers);
        asks.push({
          auth: headers.get('authorization'),
          answer: () => resolve(new Response(JSON.stringify(status === 200 ? greetie : { message: 'nej', code: 'GREETIE_NOT_FOUND' }), { status, headers: { 'content-type': 'application/json' } })),
        });
      }),
  );
  return { client: createApiClient({ fetch }), asks };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('GET /greetie/byRef, asked once per opening', () => {
  it("the page's read takes the read the route started, even when it has answered already", async () => {
    const { client, asks } = slowServer();
    startByRefRead('REF', null, client);
    await tick();
    asks[0]!.answer();
    await tick();
    expect(await getGreetieByRef('REF', undefined, client)).toEqual(greetie);
    expect(asks).toHaveLength(1);
    // Taken once: asking again (a retry) reads anew.
    const again = getGreetieByRef('REF', undefined, client);
    await tick();
    expect(asks).toHaveLength(2);
    asks[1]!.answer();
    expect(await again).toEqual(greetie);
  });

  it('a reader stopped before it heard the answer hands the early read to the next (StrictMode stops and restarts an actor)', async () => {
    const { client, asks } = slowServer(404);
    startByRefRead('REF', null, client);
    asks[0]!.answer();
    await tick();
    const first = new AbortController();
    const stopped = getGreetieByRef('REF', first.signal, client);
    const heard = vi.fn();
    stopped.then(heard, heard);
    first.abort();
    const failure = await getGreetieByRef('REF', new AbortController().signal, client).catch((e: unknown) => e);
    expect(isApiError(failure) && failure.status).toBe(404);
    expect(asks).toHaveLength(1);
    expect(heard).not.toHaveBeenCalled();
    // The reader that heard it keeps it: a retry asks anew.
    void getGreetieByRef('REF', undefined, client).catch(() => undefined);
    await tick();
    expect(asks).toHaveLength(2);
  });

  it('two readers while one read is on its way share it; one that stops listening does not stop the other', async () => {
    const { client, asks } = slowServer(404);
    const first = new AbortController();
    const stopped = getGreetieByRef('REF', first.signal, client);
    const heard = vi.fn();
    stopped.then(heard, heard);
    first.abort();
    const second = getGreetieByRef('REF', new AbortController().signal, client);
    await tick();
    expect(asks).toHaveLength(1);
    asks[0]!.answer();
    const failure = await second.catch((e: unknown) => e);
    expect(isApiError(failure) && failure.status).toBe(404);
    await tick();
    expect(heard).not.toHaveBeenCalled();
  });

  it('an early read made as someone else (another token) is not taken: the page asks as itself', async () => {
    const { client, asks } = slowServer();
    startByRefRead('REF', 'old-token', client);
    client.setToken('new-token');
    const read = getGreetieByRef('REF', undefined, client);
    await tick();
    expect(asks.map((a) => a.auth)).toEqual(['Bearer old-token', 'Bearer new-token']);
    for (const a of asks) a.answer();
    expect(await read).toEqual(greetie);
  });
});
