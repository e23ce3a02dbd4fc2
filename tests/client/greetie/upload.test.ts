import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../../src/api/client.ts';
import { uploadGreetieMedia } from '../../../src/api/greetie.ts';
import { FakeXhr } from './fakeXhr.ts';

const client = createApiClient({ token: 'tok' });
/** Whether the promise has settled after the pending microtasks ran. */
const settled = async (p: Promise<unknown>) => {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 0));
  return done;
};

describe('uploadGreetieMedia (XMLHttpRequest, for the progress)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.reset();
  });

  it('sends the file with the token, reports progress and answers the greetie', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const onProgress = vi.fn();
    const p = uploadGreetieMedia('g1', new Blob(['x'], { type: 'image/jpeg' }), { client, onProgress });
    const xhr = FakeXhr.all.at(-1)!;
    expect(xhr.url).toBe('/api/greetie/g1/media');
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(Blob);
    xhr.progress(50, 100);
    expect(onProgress).toHaveBeenCalledWith(50, 100);
    xhr.answer(200, { id: 'g1' });
    await expect(p).resolves.toEqual({ id: 'g1' });
  });

  it("fails with the server's refusal as an ApiError", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const p = uploadGreetieMedia('g1', new Blob(['x']), { client });
    FakeXhr.all.at(-1)!.answer(415, { message: 'Filen är varken en bild eller en video vi kan visa.', code: 'UNSUPPORTED_MEDIA' });
    const error = await p.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(415);
  });

  // A page's actor is stopped and restored when React reconnects its effects: a rejection from the
  // stopped upload would be reported as the restored compose actor's failure.
  it('never settles an aborted upload: whoever aborted it has stopped listening', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    const p = uploadGreetieMedia('g1', new Blob(['x']), { client, signal: controller.signal });
    controller.abort();
    expect(await settled(p)).toBe(false);
  });

  it('never starts, nor settles, an upload whose signal was aborted before it began', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const controller = new AbortController();
    controller.abort();
    const p = uploadGreetieMedia('g1', new Blob(['x']), { client, signal: controller.signal });
    expect(FakeXhr.all).toHaveLength(0);
    expect(await settled(p)).toBe(false);
  });
});
