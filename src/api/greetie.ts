import { api, ApiError, createApiClient, type ApiClient } from './client.ts';
import { currentLanguage } from '../format/language.ts';
import type { Greetie, GreetieCreateV2, GreetieUpdate, RecipientCorrection, ThanksInput } from '../../contract/greetie.ts';

/** The greetie calls (API.md "Greetie"), typed from contract/greetie.ts. HTTP only. */

const path = (id: string, rest = '') => `/api/greetie/${encodeURIComponent(id)}${rest}`;

/** POST /greetie, or /greetie/createv2 when it starts with gifts. */
export function createGreetie(body: GreetieCreateV2, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  const { gifts, ...rest } = body;
  return gifts && gifts.length > 0
    ? client.post<Greetie>('/api/greetie/createv2', { ...rest, gifts }, { signal })
    : client.post<Greetie>('/api/greetie', rest, { signal });
}

/** GET /greetie/{id} (the sender reading their own: never marks it viewed). */
export function getGreetie(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.get<Greetie>(path(id), { query: { markAsViewed: false }, signal });
}

/** PATCH /greetie/{id}: the fields given replace the draft's. */
export function updateGreetie(id: string, changes: GreetieUpdate, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.request<Greetie>('PATCH', path(id), { body: changes, signal });
}

/** DELETE /greetie/{id} (a draft, or one awaiting payment). */
export function deleteGreetie(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<void> {
  return client.delete<void>(path(id), { signal });
}

/** POST /greetie/{id}/send: a draft without gifts becomes scheduled. */
export function sendGreetie(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.post<Greetie>(path(id, '/send'), undefined, { signal });
}

/** POST /greetie/{id}/cancel: stopped, its vouchers void, a paid one refunded (once, however often asked). */
export function cancelGreetie(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.post<Greetie>(path(id, '/cancel'), undefined, { signal });
}

/** POST /greetie/{id}/resend: the same link to the same number again (at most once a day). */
export function resendGreetie(id: string, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.post<Greetie>(path(id, '/resend'), undefined, { signal });
}

/** POST /greetie/{id}/recipient: the corrected recipient; a delivered greetie goes to the new number at once. */
export function correctRecipient(id: string, correction: RecipientCorrection, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.post<Greetie>(path(id, '/recipient'), correction, { signal });
}

/** POST /greetie/{id}/thanks: the recipient thanks the sender, once (409 THANKS_ALREADY_SENT after). */
export function thankSender(id: string, thanks: ThanksInput, signal?: AbortSignal, client: ApiClient = api): Promise<Greetie> {
  return client.post<Greetie>(path(id, '/thanks'), thanks, { signal });
}

export interface GreetiePage {
  items: Greetie[];
  /** The cursor of the next page (from `Link: <…>; rel="next"`), null at the end. */
  nextCursor: string | null;
}

/** The `cursor` of a `Link: <…?cursor=…>; rel="next"` header. */
export function nextCursorOf(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;\s*rel="?next"?/i.exec(part);
    if (m) return new URL(m[1]!, 'http://x').searchParams.get('cursor');
  }
  return null;
}

/** GET /greetie: sent and received, newest first, a page at a time. */
export async function listGreeties(query: { cursor?: string | null; limit?: number } = {}, signal?: AbortSignal, client: ApiClient = api): Promise<GreetiePage> {
  let link: string | null = null;
  // The app's client answers bodies only; this one also keeps the page's Link header.
  const reader = createApiClient({
    baseUrl: client.baseUrl,
    token: client.getToken(),
    fetch: async (input, init) => {
      const res = await globalThis.fetch(input, init);
      link = res.headers.get('link');
      return res;
    },
  });
  const items = await reader.get<Greetie[]>('/api/greetie', { query: { cursor: query.cursor ?? undefined, limit: query.limit }, signal });
  return { items, nextCursor: nextCursorOf(link) };
}

export interface UploadOptions {
  /** Bytes sent so far of the whole request. */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborts the upload. */
  signal?: AbortSignal;
  /** A video's poster (a frame the browser drew), sent as `poster`. */
  poster?: Blob;
  client?: ApiClient;
}

/**
 * A multipart POST through XMLHttpRequest: fetch cannot report upload progress. Answers the JSON
 * body; fails with ApiError as the app's client does (status 0 when the network failed).
 *
 * An aborted upload never settles, as the app's client's calls do (client.ts): whoever aborted it
 * has stopped listening. @xstate/react stops and restores a page's actor when React reconnects its
 * effects; a rejection from the stopped upload would be reported as the restored actor's failure.
 */
export function uploadForm<T>(url: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const client = options.client ?? api;
  const full = `${client.baseUrl}${url}`;
  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) return;
    const xhr = new XMLHttpRequest();
    xhr.open('POST', full);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    const token = client.getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded, e.total);
    });
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.addEventListener('load', () => {
      done();
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : undefined;
      } catch {
        /* not JSON: keep the text */
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError({ url: full, status: xhr.status, statusText: xhr.statusText, body, language: currentLanguage() }));
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new ApiError({ url: full, status: 0, statusText: '', body: undefined, language: currentLanguage() }));
    });
    xhr.addEventListener('abort', done);
    xhr.send(form);
  });
}

/** POST /greetie/{id}/media: the photo or video (field `file`, optional `poster`) → the greetie. */
export function uploadGreetieMedia(id: string, file: Blob, options: UploadOptions = {}): Promise<Greetie> {
  const form = new FormData();
  form.append('file', file);
  if (options.poster) form.append('poster', options.poster, options.poster.type === 'image/png' ? 'poster.png' : 'poster.jpg');
  return uploadForm<Greetie>(path(id, '/media'), form, options);
}

/** POST /greetie/{id}/mediaoverlay: the content flattened to one PNG or WebP. */
export function uploadGreetieOverlay(id: string, image: Blob, options: UploadOptions = {}): Promise<Greetie> {
  const form = new FormData();
  form.append('file', image, image.type === 'image/webp' ? 'overlay.webp' : 'overlay.png');
  return uploadForm<Greetie>(path(id, '/mediaoverlay'), form, options);
}

/** POST /greetie/{id}/picture: a picture element's image → its url. */
export function uploadGreetiePicture(id: string, image: Blob, options: UploadOptions = {}): Promise<{ url: string }> {
  const form = new FormData();
  form.append('file', image);
  return uploadForm<{ url: string }>(path(id, '/picture'), form, options);
}
