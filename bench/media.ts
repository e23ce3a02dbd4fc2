/**
 * The media upload's memory: a 100 MB video uploaded to the production server as a browser would
 * (one multipart POST, streamed), while the node process's RSS is sampled every 50 ms. Issue 12's
 * target: the upload raises the server's memory by at most 50 MB. The video is generated on the
 * fly (an MP4 whose movie header comes first, then ~100 MB of media data), never held in memory
 * here either.
 */
import { request } from 'node:http';
import { Readable } from 'node:stream';
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

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);
};
const full = (type: string, version: number, flags: number, ...payload: Buffer[]) => box(type, u32((version << 24) | flags), ...payload);
const MATRIX = Buffer.concat([u32(0x10000), u32(0), u32(0), u32(0), u32(0x10000), u32(0), u32(0), u32(0), u32(0x40000000)]);

/** ftyp + moov (one 1280×720 video track, `seconds` long): what precedes the media data. */
function movieHeader(seconds: number): Buffer {
  const d = seconds * 1000;
  const avc1 = box('avc1', Buffer.alloc(6), u16(1), Buffer.alloc(16), u16(1280), u16(720), u32(0x480000), u32(0x480000), u32(0), u16(1), Buffer.alloc(32), u16(0x18), u16(0xffff));
  const stbl = box('stbl', full('stsd', 0, 0, u32(1), avc1), full('stts', 0, 0, u32(0)), full('stsc', 0, 0, u32(0)), full('stsz', 0, 0, u32(0), u32(0)), full('stco', 0, 0, u32(0)));
  const trak = box(
    'trak',
    full('tkhd', 0, 3, u32(0), u32(0), u32(1), u32(0), u32(d), Buffer.alloc(8), u16(0), u16(0), u16(0), u16(0), MATRIX, u32(1280 << 16), u32(720 << 16)),
    box(
      'mdia',
      full('mdhd', 0, 0, u32(0), u32(0), u32(1000), u32(d), u16(0x55c4), u16(0)),
      full('hdlr', 0, 0, u32(0), Buffer.from('vide'), Buffer.alloc(12), Buffer.from('VideoHandler\0')),
      box('minf', full('vmhd', 0, 1, Buffer.alloc(8)), box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1))), stbl),
    ),
  );
  const moov = box('moov', full('mvhd', 0, 0, u32(0), u32(0), u32(1000), u32(d), u32(0x10000), u16(0x100), Buffer.alloc(10), MATRIX, Buffer.alloc(24), u32(2)), trak);
  return Buffer.concat([box('ftyp', Buffer.from('isom'), u32(512), Buffer.from('isomiso2mp41')), moov]);
}

/** A `total`-byte MP4 as a stream of 1 MiB chunks. */
function videoStream(total: number, seconds: number): { head: Buffer; rest: number; stream: () => Readable } {
  const head = movieHeader(seconds);
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
