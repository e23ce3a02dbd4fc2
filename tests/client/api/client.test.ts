import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from '../../../src/api/client.ts';
import { defaultErrorMessage } from '../../../src/api/errors.ts';
import { readSettings } from '../../../src/settings.ts';

function fakeFetch(status: number, body: unknown, init: { statusText?: string; contentType?: string } = {}) {
  return vi.fn<typeof fetch>(async () => {
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text, {
      status,
      statusText: init.statusText ?? '',
      headers: { 'content-type': init.contentType ?? (typeof body === 'string' ? 'text/plain' : 'application/json') },
    });
  });
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('API client', () => {
  it('never settles an aborted call: whoever aborted it has stopped listening', async () => {
    const controller = new AbortController();
    const f = vi.fn<typeof fetch>(
      (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const api = createApiClient({ fetch: f });
    const call = api.get('/api/merchant', { signal: controller.signal });
    controller.abort();
    const outcome = await Promise.race([call.then(() => 'answered', () => 'failed'), new Promise((r) => setTimeout(() => r('still waiting'), 50))]);
    expect(outcome).toBe('still waiting');
  });

  it('has no base URL by default and calls the path as given', async () => {
    const f = fakeFetch(200, { ok: true });
    const api = createApiClient({ fetch: f });
    expect(api.baseUrl).toBe('');
    await api.get('/api/health');
    expect(f.mock.calls[0]![0]).toBe('/api/health');
  });

  it('prefixes a configured base URL and adds the query', async () => {
    const f = fakeFetch(200, []);
    const api = createApiClient({ baseUrl: 'https://api.example.se/', fetch: f });
    await api.get('/api/merchant/v2', { query: { q: 'kaffe', limit: 10, cursor: undefined } });
    expect(f.mock.calls[0]![0]).toBe('https://api.example.se/api/merchant/v2?q=kaffe&limit=10');
  });

  it('reads the base URL setting (empty by default)', () => {
    expect(readSettings({}).apiBaseUrl).toBe('');
    expect(readSettings({ VITE_API_BASE_URL: 'https://api.example.se/' }).apiBaseUrl).toBe('https://api.example.se');
  });

  it('sends no credentials by default, and them only when configured', async () => {
    const f = fakeFetch(200, {});
    await createApiClient({ fetch: f }).get('/x');
    expect(f.mock.calls[0]![1]!.credentials).toBe('omit');
    await createApiClient({ fetch: f, credentials: 'include' }).get('/x');
    expect(f.mock.calls[1]![1]!.credentials).toBe('include');
  });

  it('sends no Authorization header until a token is set, then a bearer token', async () => {
    const f = fakeFetch(200, {});
    const api = createApiClient({ fetch: f });
    await api.get('/x');
    expect((f.mock.calls[0]![1]!.headers as Record<string, string>).Authorization).toBeUndefined();
    api.setToken('abc.def');
    await api.get('/x');
    expect((f.mock.calls[1]![1]!.headers as Record<string, string>).Authorization).toBe('Bearer abc.def');
    api.setToken(null);
    await api.get('/x');
    expect((f.mock.calls[2]![1]!.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('sends JSON and parses JSON', async () => {
    const f = fakeFetch(200, { id: '1', name: 'Anna' });
    const api = createApiClient({ fetch: f });
    const user = await api.post<{ id: string; name: string }>('/api/mobileuser', { name: 'Anna' });
    expect(user).toEqual({ id: '1', name: 'Anna' });
    const init = f.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"name":"Anna"}');
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers.Accept).toBe('application/json');
  });

  it('answers undefined for 204 No Content', async () => {
    const api = createApiClient({ fetch: fakeFetch(204, undefined) });
    await expect(api.delete('/api/greetie/1')).resolves.toBeUndefined();
  });

  it('asks for messages in the current language', async () => {
    const f = fakeFetch(200, {});
    await createApiClient({ fetch: f, language: () => 'en' }).get('/x');
    expect((f.mock.calls[0]![1]!.headers as Record<string, string>)['Accept-Language']).toBe('en');
  });

  it('raises an ApiError carrying url, status, status text and body', async () => {
    const body = { message: 'Fel kod', code: 'WRONG_CODE' };
    const api = createApiClient({ fetch: fakeFetch(400, body, { statusText: 'Bad Request' }) });
    const e = await failure(api.post('/api/voucher/redeem', {}));
    expect(e).toBeInstanceOf(Error);
    expect(e.url).toBe('/api/voucher/redeem');
    expect(e.status).toBe(400);
    expect(e.statusText).toBe('Bad Request');
    expect(e.body).toEqual(body);
    expect(e.code).toBe('WRONG_CODE');
  });

  it("prefers the server's message for display but keeps the default message", async () => {
    const api = createApiClient({
      fetch: fakeFetch(400, { message: 'Fel kod', code: 'WRONG_CODE' }, { statusText: 'Bad Request' }),
      language: () => 'sv',
    });
    const e = await failure(api.get('/x'));
    expect(e.userMessage).toBe('Fel kod');
    expect(e.message).toBe(defaultErrorMessage(400, 'Bad Request', null, 'sv'));
    const plain = await failure(createApiClient({ fetch: fakeFetch(404, 'nope'), language: () => 'sv' }).get('/x'));
    expect(plain.userMessage).toBe(plain.message);
  });

  it('raises an ApiError with a network message when there is no answer', async () => {
    const api = createApiClient({ fetch: vi.fn<typeof fetch>(async () => Promise.reject(new TypeError('Failed to fetch'))) });
    const e = await failure(api.get('/x'));
    expect(e.status).toBe(0);
    expect(e.message).toMatch(/uppkoppling/);
  });
});

describe('default error messages', () => {
  const cases: Array<[number, string, RegExp, RegExp]> = [
    [400, 'Bad Request', /förfrågan/, /request/],
    [401, 'Unauthorized', /logga in/, /sign in/],
    [403, 'Forbidden', /behörighet/, /permission/],
    [404, 'Not Found', /hittade inte/, /couldn't find/],
    [500, 'Internal Server Error', /gick fel hos oss/, /went wrong on our side/],
    [502, 'Bad Gateway', /svarar inte/, /isn't answering/],
    [503, 'Service Unavailable', /tillfälligt otillgänglig/, /temporarily unavailable/],
  ];

  it.each(cases)('%i has its own message in Swedish and English', (status, text, sv, en) => {
    const svMessage = defaultErrorMessage(status, text, null, 'sv');
    const enMessage = defaultErrorMessage(status, text, null, 'en');
    expect(svMessage).toMatch(sv);
    expect(svMessage).toContain(`${status} ${text}`);
    expect(enMessage).toMatch(en);
    expect(enMessage).toContain(`${status} ${text}`);
  });

  it('any other non-2xx gets a generic message with status, status text and body, in both languages', async () => {
    const api = (language: 'sv' | 'en') =>
      createApiClient({ fetch: fakeFetch(418, "I'm short and stout", { statusText: "I'm a teapot" }), language: () => language });
    const sv = await failure(api('sv').get('/x'));
    expect(sv.message).toBe("Något gick fel: 418 I'm a teapot. I'm short and stout");
    const en = await failure(api('en').get('/x'));
    expect(en.message).toBe("Something went wrong: 418 I'm a teapot. I'm short and stout");
    const json = defaultErrorMessage(409, 'Conflict', { message: 'Redan inlöst', code: 'ALREADY' }, 'sv');
    expect(json).toContain('409 Conflict');
    expect(json).toContain('Redan inlöst');
  });

  it('cuts a long body short in the generic message', () => {
    const message = defaultErrorMessage(418, 'Teapot', 'x'.repeat(1000), 'en');
    expect(message.length).toBeLessThan(260);
  });
});
