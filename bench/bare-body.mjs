/**
 * `node bench/bare-body.mjs`: what node:http's CPU per answer is when the body is handed to `end()`
 * as a Buffer (the bench's ceiling: header block and body go out as two pieces, one `writev`) or
 * as text (`_send` joins it to the header block: one `write`, the text encoded for every answer),
 * by body size (decision 162). Two bare servers (this file with `serve buffer|string <bytes>`),
 * loaded alternately by autocannon at 50 connections; CPU per request from /proc.
 * SIZES=600,2000,6000 ROUNDS=7 by default.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

function serve(mode, size) {
  const unit = '{"name":"Kafé Åsa","city":"Göteborg","x":1},';
  let text = '[';
  while (Buffer.byteLength(text) < size) text += unit;
  text += '{}]';
  const buf = Buffer.from(text);
  const headers = ['x-request-id', '', 'x-content-type-options', 'nosniff', 'etag', '"abc"', 'cache-control', 'no-cache', 'content-type', 'application/json; charset=utf-8', 'content-length', String(buf.length)];
  let n = 0;
  const server = http.createServer((_req, res) => {
    headers[1] = String(++n);
    res.writeHead(200, headers);
    res.end(mode === 'string' ? text : buf);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
}

const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

async function start(mode, size) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), 'serve', mode, String(size)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { child, url: `http://127.0.0.1:${port}` };
}

async function main() {
  const { default: autocannon } = await import('autocannon');
  const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)].toFixed(1);
  for (const size of (process.env.SIZES ?? '600,2000,6000').split(',').map(Number)) {
    const sides = { buffer: await start('buffer', size), string: await start('string', size) };
    const perRequest = { buffer: [], string: [] };
    for (const s of Object.values(sides)) await autocannon({ url: s.url, connections: 50, duration: 1 });
    for (let r = 0; r < Number(process.env.ROUNDS ?? 7); r++) {
      for (const name of r % 2 ? ['string', 'buffer'] : ['buffer', 'string']) {
        const s = sides[name];
        const c0 = cpu(s.child.pid);
        const x = await autocannon({ url: s.url, connections: 50, duration: 3 });
        perRequest[name].push(((cpu(s.child.pid) - c0) / x.requests.total) * 1e6);
      }
    }
    console.log(`body ${size} B: CPU per request, median of ${perRequest.buffer.length}: Buffer ${median(perRequest.buffer)} µs, text ${median(perRequest.string)} µs (load average ${os.loadavg()[0].toFixed(2)})`);
    for (const s of Object.values(sides)) s.child.kill();
  }
}

if (process.argv[2] === 'serve') serve(process.argv[3], Number(process.argv[4]));
else await main();
