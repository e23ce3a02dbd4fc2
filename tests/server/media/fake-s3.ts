import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3 stand-in speaking the REST protocol for the calls the storage makes: PutObject,
 * GetObject (with Range), HeadObject, DeleteObject, path-style (`/{bucket}/{key}`). It refuses
 * requests without a SigV4 Authorization header for its bucket and access key, and answers
 * S3's XML errors (NoSuchKey, NoSuchBucket, AccessDenied). No MinIO or other S3 server can be
 * installed here from npm or Debian, so the S3 adapter is tested against this.
 */
export interface FakeS3 {
  url: string;
  objects: Map<string, { body: Buffer; contentType: string; cacheControl: string | undefined }>;
  requests: { method: string; path: string; range: string | undefined }[];
  close(): Promise<void>;
}

const xmlError = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(opts: { bucket: string; accessKeyId: string }): Promise<FakeS3> {
  const objects: FakeS3['objects'] = new Map();
  const requests: FakeS3['requests'] = [];
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const range = req.headers.range;
    requests.push({ method: req.method ?? '', path: url.pathname, range });
    const send = (status: number, body = '', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'x-amz-request-id': 'fake', ...(body ? { 'content-type': 'application/xml' } : {}), ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith(`AWS4-HMAC-SHA256 Credential=${opts.accessKeyId}/`) || !req.headers['x-amz-date'] || !req.headers['x-amz-content-sha256']) {
      await bodyOf(req);
      return send(403, xmlError('AccessDenied', 'Access Denied'));
    }
    if (bucket !== opts.bucket) {
      await bodyOf(req);
      return send(404, xmlError('NoSuchBucket', 'The specified bucket does not exist'));
    }
    switch (req.method) {
      case 'PUT': {
        const body = await bodyOf(req);
        const declared = Number(req.headers['content-length']);
        if (declared !== body.length) return send(400, xmlError('IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header'));
        objects.set(key, { body, contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'), cacheControl: req.headers['cache-control'] });
        return send(200, '', { etag: '"fake"' });
      }
      case 'GET':
      case 'HEAD': {
        const o = objects.get(key);
        if (!o) return send(404, req.method === 'HEAD' ? '' : xmlError('NoSuchKey', 'The specified key does not exist.'));
        const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
        if (m) {
          const start = Number(m[1]);
          const end = Math.min(m[2] ? Number(m[2]) : o.body.length - 1, o.body.length - 1);
          if (start >= o.body.length) return send(416, xmlError('InvalidRange', 'The requested range is not satisfiable'));
          res.writeHead(206, { 'content-type': o.contentType, 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${o.body.length}`, 'accept-ranges': 'bytes' });
          return res.end(req.method === 'HEAD' ? undefined : o.body.subarray(start, end + 1));
        }
        res.writeHead(200, { 'content-type': o.contentType, 'content-length': o.body.length, 'accept-ranges': 'bytes' });
        return res.end(req.method === 'HEAD' ? undefined : o.body);
      }
      case 'DELETE':
        objects.delete(key);
        return send(204);
      default:
        return send(405, xmlError('MethodNotAllowed', 'The specified method is not allowed against this resource.'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
