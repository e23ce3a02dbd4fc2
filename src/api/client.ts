import { ApiError, parseRetryAfter, type ApiLanguage } from './errors.ts';
import { settings } from '../settings.ts';
import { currentLanguage } from '../format/language.ts';
import { forgetOnNewPage } from '../pageMemory.ts';

export { ApiError, isApiError } from './errors.ts';

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  /** Sent as JSON (FormData is sent as-is, for uploads). */
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** This call's cookies: the auth calls send and take the refresh cookie ('same-origin'); others use the client's. */
  credentials?: RequestCredentials;
}

export interface ApiClientOptions {
  /** Prefix for every path; empty (same origin) by default. */
  baseUrl?: string;
  /** Bearer token sent as `Authorization: Bearer …`; none by default. */
  token?: string | null;
  /** Cookies and HTTP auth: 'omit' by default (the API uses bearer tokens, not cookies). */
  credentials?: RequestCredentials;
  /** The language of messages (Accept-Language, default error messages). Defaults to <html lang>. */
  language?: () => ApiLanguage;
  fetch?: typeof fetch;
}

export interface ApiClient {
  readonly baseUrl: string;
  setToken(token: string | null): void;
  getToken(): string | null;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>): Promise<T>;
  delete<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<T>;
}

function withQuery(url: string, query: Query | undefined): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v));
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return undefined;
  const text = await res.text();
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function isAbort(cause: unknown): boolean {
  return (cause instanceof DOMException || cause instanceof Error) && cause.name === 'AbortError';
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const credentials = options.credentials ?? 'omit';
  const language = options.language ?? currentLanguage;
  let token = options.token ?? null;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const url = withQuery(`${baseUrl}${path}`, opts.query);
    const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': language() };
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) {
      body = opts.body;
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    if (token) headers.Authorization = `Bearer ${token}`;
    Object.assign(headers, opts.headers);

    const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    let res: Response;
    try {
      res = await doFetch(url, { method, headers, body, credentials: opts.credentials ?? credentials, signal: opts.signal });
    } catch (cause) {
      // An aborted request never answers. Whoever aborted it has stopped listening: the actor that
      // made the call was stopped. @xstate/react stops and restores a page's actor when React
      // reconnects its effects, and fromPromise would then report an AbortError from the stopped
      // call as the restored actor's failure ("signal is aborted without reason" on the page).
      if (isAbort(cause)) return new Promise<T>(() => {});
      throw new ApiError({ url, status: 0, statusText: '', body: undefined, language: language() });
    }
    let data: unknown;
    try {
      data = await readBody(res);
    } catch (cause) {
      if (isAbort(cause)) return new Promise<T>(() => {});
      throw cause;
    }
    if (!res.ok) {
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      throw new ApiError({ url, status: res.status, statusText: res.statusText, body: data, language: language(), ...(retryAfter === undefined ? {} : { retryAfter }) });
    }
    return data as T;
  }

  return {
    baseUrl,
    setToken: (t) => {
      token = t;
    },
    getToken: () => token,
    request,
    get: (path, o) => request('GET', path, o),
    post: (path, body, o) => request('POST', path, { ...o, body }),
    put: (path, body, o) => request('PUT', path, { ...o, body }),
    delete: (path, o) => request('DELETE', path, o),
  };
}

/** The app's client: same origin unless VITE_API_BASE_URL says otherwise. Paths start with /api. */
export const api: ApiClient = createApiClient({ baseUrl: settings.apiBaseUrl });
forgetOnNewPage(() => api.setToken(null));
