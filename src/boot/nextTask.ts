/**
 * Resolves in a later task of the event loop, so the browser may paint and take input between the
 * work before and after (decision 156). `scheduler.yield()` where there is one (its continuation
 * goes before other queued tasks); elsewhere a MessageChannel message, which, unlike a timer, a
 * hidden tab does not throttle to once a second.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
