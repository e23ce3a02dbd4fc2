// Loaded into the server by bench/portal-tail.ts (NODE_OPTIONS=--import=<this file>, with
// PORTAL_TAIL_PROBE=<file>): every garbage collection (perf_hooks 'gc' entries: when, how long,
// which kind) and, every 100 ms, the event loop's delay over those 100 ms (monitorEventLoopDelay)
// and the young generation's size,
// appended to the file as JSON lines. Nothing else in the server changes; not loaded otherwise.
import { appendFileSync } from 'node:fs';
import v8 from 'node:v8';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.PORTAL_TAIL_PROBE;
if (file) {
  const origin = performance.timeOrigin;
  const lines = [];
  const kinds = { 1: 'scavenge', 2: 'minor-ms', 4: 'mark-compact', 8: 'incremental', 16: 'weak' };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) lines.push(JSON.stringify({ gc: kinds[e.detail?.kind] ?? String(e.detail?.kind), at: origin + e.startTime, ms: e.duration }));
  }).observe({ entryTypes: ['gc'] });
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const timer = setInterval(() => {
    lines.push(JSON.stringify({ eld: true, at: Date.now(), maxMs: h.max / 1e6, p99Ms: h.percentile(99) / 1e6, meanMs: h.mean / 1e6, newSpaceMb: v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space').space_size / 1e6 }));
    h.reset();
    appendFileSync(file, lines.splice(0).join('\n') + '\n');
  }, 100);
  timer.unref();
}

// PORTAL_TAIL_HEAP=<file>: SIGWINCH (not SIGUSR2: close-with-grace shuts the server down on it) starts V8's sampling heap profiler (every allocation, kept or
// collected), the next SIGWINCH stops it and writes the bytes allocated per function to the file.
const heapFile = process.env.PORTAL_TAIL_HEAP;
if (heapFile) {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  // PORTAL_TAIL_HEAP_PROMOTED=1: only what outlived the young generation (promoted, kept or collected later by a major GC).
  const promotedOnly = process.env.PORTAL_TAIL_HEAP_PROMOTED === '1';
  let on = false;
  process.on('SIGWINCH', async () => {
    if (!on) {
      on = true;
      await post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !promotedOnly });
      return;
    }
    on = false;
    const { profile } = await post('HeapProfiler.stopSampling');
    const bySite = new Map();
    const walk = (node, stack) => {
      const f = node.callFrame;
      const site = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/\/work\/[^/]+\//, '')}:${f.lineNumber + 1}`;
      const path = [...stack, site].slice(-4);
      if (node.selfSize > 0) {
        const k = path.join(' < ');
        bySite.set(k, (bySite.get(k) ?? 0) + node.selfSize);
      }
      for (const c of node.children) walk(c, path);
    };
    walk(profile.head, []);
    const total = [...bySite.values()].reduce((a, b) => a + b, 0);
    writeFileSync(heapFile, JSON.stringify({ total, sites: [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 40) }));
  });
}

// PORTAL_TAIL_SNAPSHOT=<file>: SIGTTIN writes a heap snapshot there (what is alive under load, with its retainers).
const snapshotFile = process.env.PORTAL_TAIL_SNAPSHOT;
if (snapshotFile) {
  process.on('SIGTTIN', () => {
    v8.writeHeapSnapshot(snapshotFile);
  });
}
