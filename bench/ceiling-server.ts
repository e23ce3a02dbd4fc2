/**
 * The bench's ceiling, in a process of its own: a bare node:http server that answers every request
 * with one captured answer (status, headers, body) from memory. No routing, validation, database
 * or logging. `bench/api.ts` starts it (`ceilingServer()`), passing the answer as a JSON file, and
 * reads the port from the first line this prints.
 *
 * It used to run inside the bench's own process, on the event loop that autocannon uses to make
 * the load: the two took turns, and the ceiling measured 2.2 times too low (decision 062).
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';

interface Answer {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

const file = process.argv[2];
if (!file) throw new Error('usage: ceiling-server.ts <answer.json>');
const answer = JSON.parse(readFileSync(file, 'utf8')) as Answer;
const body = Buffer.from(answer.bodyBase64, 'base64');
const headers = { ...answer.headers, 'content-length': String(body.length) };

const server = http.createServer((req, res) => {
  // Read (and drop) the request body, as the real server must.
  req.resume();
  req.on('end', () => {
    res.writeHead(answer.status, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
// The bench's end is the ceiling's end, even when the bench is killed.
process.on('disconnect', () => process.exit(0));
