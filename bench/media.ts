/**
 * The media upload's memory: a 100 MB video uploaded to the production server as a browser would
 * (one multipart POST, streamed), while the node process's RSS is sampled every 50 ms. The
 * target: the upload raises the server's memory by at most 50 MB. The video is generated on the
 * fly (an MP4 whose movie header comes first, then ~100 MB of media data), never held in memory
 * here either.
 */
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { movieHeader, u32 } from '../tests/server/media/mp4.ts';
import { rss } from './server.ts';

const MB = 1024 * 1024;

export interface MediaUploadResult {
  available: true;
  bytes: number;
  status: number;
  seconds: number;
  rssBefore: number;
  rssPeak: number;
  growth: number;
}

/** ftyp + moov (one 1280×720 video track, `seconds` long): what precedes the media data. */
function movieHead(seconds: number): Buffer {
  const { ftyp, moov } = movieHeader(seconds, { width: 1280, height: 720 });
  return Buffer.concat([ftyp, moov]);
}

/** A `total`-byte MP4 as a stream of 1 MiB chunks. */
function videoStream(total: number, seconds: number): { head: Buffer; rest: number; stream: () => Readable } {
  const head = movieHead(seconds);
  const mdat = total - head.length;
  const chunk = Buffer.alloc(MB, 0x5a);
  return {
    head,
    rest: mdat,
    stream: () =>
      Readable.from(
        (function* () {
          yield head;
          yield Buffer.concat([u32(mdat), Buffer.from('mdat')]);
          let left = mdat - 8;
          while (left > 0) {
            const n = Math.min(left, chunk.length);
            yield n === chunk.length ? chunk : chunk.subarray(0, n);
            left -= n;
          }
        })(),
      ),
  };
}

function postMultipart(baseUrl: string, path: string, token: string, file: { size: number; stream: () => Readable }): Promise<{ status: number; body: string }> {
  const boundary = '----greetiebench';
  const pre = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp4"\r\nContent-Type: video/mp4\r\n\r\n`);
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(pre.length + file.size + post.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(pre);
    const s = file.stream();
    s.on('end', () => req.end(post));
    s.pipe(req, { end: false });
  });
}

async function draft(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/greetie`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  if (res.status !== 200) throw new Error(`POST /api/greetie answered ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

/**
 * Warm-up: one small upload (so lazily created things, pools and JIT are not counted), then the
 * 100 MB one, with RSS sampled every 50 ms from just before it starts until its answer.
 */
export async function benchMediaUpload(baseUrl: string, pid: number, token: string, bytes = 100 * MB): Promise<MediaUploadResult> {
  const small = videoStream(2 * MB, 10);
  const warm = await postMultipart(baseUrl, `/api/greetie/${await draft(baseUrl, token)}/media`, token, { size: 2 * MB, stream: small.stream });
  if (warm.status !== 200) throw new Error(`warm-up upload answered ${warm.status}: ${warm.body.slice(0, 200)}`);
  const id = await draft(baseUrl, token);
  await new Promise((r) => setTimeout(r, 1000));
  const rssBefore = rss(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rss(pid))), 50);
  const t0 = performance.now();
  const big = videoStream(bytes, 30);
  let res: { status: number; body: string };
  try {
    res = await postMultipart(baseUrl, `/api/greetie/${id}/media`, token, { size: bytes, stream: big.stream });
  } finally {
    clearInterval(sampler);
  }
  rssPeak = Math.max(rssPeak, rss(pid));
  if (res.status !== 200) throw new Error(`100 MB upload answered ${res.status}: ${res.body.slice(0, 200)}`);
  return { available: true, bytes, status: res.status, seconds: (performance.now() - t0) / 1000, rssBefore, rssPeak, growth: rssPeak - rssBefore };
}
