import v8 from 'node:v8';

/**
 * V8's allocation-site pretenuring off, before anything else is loaded (decision 163).
 *
 * V8 watches where objects are made ("allocation sites": object and array literals, `new Array`)
 * and, when most of a site's objects outlive a young-generation collection, makes that site's
 * objects in the old generation from then on. Under load the server's rows trip it: a site in the
 * database driver's row decoding was judged long-lived (it decided "tenure" once and kept it with
 * 10 % of the objects surviving), so each row's holder went straight to the old generation, and
 * the old generation's pointers kept every row's text alive through the young collections that
 * followed: ≈ 10 kB per portal page copied and promoted, the scavenges 11–12 ms instead of 2 ms,
 * and the first page's p99 tail with them (decision 155's bursts). A server's objects are short
 * lived almost without exception, so the prediction gains it little and this mistake costs it much.
 *
 * Set here rather than as a flag on the command line so every way of starting the server (npm
 * start, the bench, a process manager calling node directly) has it; it takes effect for every
 * function compiled afterwards, which is all of the app's.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');
