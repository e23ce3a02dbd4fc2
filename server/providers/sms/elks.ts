import { SmsError, type SmsMessage, type SmsSender } from './provider.ts';

/**
 * 46elks (https://46elks.com/docs/send-sms): POST {baseUrl}/a1/sms with HTTP Basic auth
 * (API username and password) and a form-encoded body `from`, `to`, `message`. A 200 answer is
 * JSON with `id` and `status`. 401 means wrong credentials, 402 no credit left; 4xx are not worth
 * retrying. 5xx, network errors and timeouts are retried a bounded number of times, then the
 * caller gets SmsError('unavailable').
 */
export interface ElksOptions {
  baseUrl: string;
  username: string;
  password: string;
  /** 3–11 letters/digits, or a number in E.164. */
  sender: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  attempts?: number;
  /** Wait before attempt n+1 is backoffMs * n. */
  backoffMs?: number;
  fetch?: typeof fetch;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createElksSms(opts: ElksOptions): SmsSender {
  const timeoutMs = opts.timeoutMs ?? 3000;
  const attempts = Math.max(1, opts.attempts ?? 3);
  const backoffMs = opts.backoffMs ?? 300;
  const doFetch = opts.fetch ?? fetch;
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/a1/sms`;
  const authorization = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;

  async function attempt(message: SmsMessage): Promise<void> {
    let res: Response;
    try {
      res = await doFetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ from: opts.sender, to: message.to, message: message.body }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new SmsError('unavailable', timedOut ? `46elks did not answer within ${timeoutMs} ms` : '46elks could not be reached');
    }
    // Read the body so the connection is released; never put it in an error (it echoes the message).
    const text = await res.text().catch(() => '');
    if (res.ok) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new SmsError('unavailable', '46elks answered 200 without JSON', res.status);
      }
      const p = parsed as { id?: unknown; status?: unknown };
      if (typeof p.id !== 'string' || p.status === 'failed') {
        throw new SmsError('rejected', `46elks did not accept the message (status ${String(p.status)})`, res.status);
      }
      return;
    }
    if (res.status >= 500 || res.status === 429) throw new SmsError('unavailable', `46elks answered ${res.status}`, res.status);
    if (res.status === 401 || res.status === 403) throw new SmsError('rejected', `46elks refused our credentials (${res.status})`, res.status);
    if (res.status === 402) throw new SmsError('rejected', '46elks: no credit left on the account (402)', res.status);
    throw new SmsError('rejected', `46elks refused the message (${res.status})`, res.status);
  }

  /**
   * Whether this exact message went out (https://46elks.com/docs/sms-history): GET /a1/sms
   * filtered on the recipient, newest first, at most 100 — an interrupted delivery is looked at
   * within minutes, long before 100 more messages reach the same number. Our delivery texts are
   * unique (they carry the greetie's refId), so the body identifies the message. Never logged.
   */
  async function confirmSent(message: SmsMessage): Promise<boolean> {
    let res: Response;
    try {
      res = await doFetch(`${url}?${new URLSearchParams({ to: message.to, limit: '100' }).toString()}`, {
        headers: { authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new SmsError('unavailable', '46elks could not be asked for its history');
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw new SmsError(res.status >= 500 || res.status === 429 ? 'unavailable' : 'rejected', `46elks history answered ${res.status}`, res.status);
    let data: unknown;
    try {
      data = (JSON.parse(text) as { data?: unknown }).data;
    } catch {
      throw new SmsError('unavailable', '46elks history answered without JSON', res.status);
    }
    if (!Array.isArray(data)) throw new SmsError('unavailable', '46elks history answered without a list', res.status);
    return data.some((m: { direction?: unknown; to?: unknown; message?: unknown }) => {
      return typeof m.direction === 'string' && m.direction.startsWith('outgoing') && m.to === message.to && m.message === message.body;
    });
  }

  return {
    confirmSent,
    async send(message) {
      let last: SmsError | undefined;
      for (let n = 1; n <= attempts; n++) {
        try {
          await attempt(message);
          return;
        } catch (err) {
          if (!(err instanceof SmsError) || err.kind !== 'unavailable') throw err;
          last = err;
          if (n < attempts && backoffMs > 0) await sleep(backoffMs * n);
        }
      }
      throw last ?? new SmsError('unavailable', '46elks could not be reached');
    },
  };
}
