import v8 from 'node:v8';

/**
 * V8's allocation-site pretenuring off, before anything else is loaded (decision 163).
 *
 * V8 watches where objects are made ("allocation sites": object and array literals, `new Array`)
 * and, when most of a site's objects outlive a young-generation collection, makes that site's
 * objects in the old generation from then on. Under load the server's rows trip it: a site was
 * judged long-lived (it decided "tenure" once and kept it with 10 % of the objects surviving), and
 * what outlived the young generation was each row's text as the database driver decodes it, so the
 * holder is most likely in that decoding: made in the old generation, its pointers kept every row's
 * text alive through the young collections that followed: ≈ 10 kB per portal page copied and
 * promoted, the scavenges 11–12 ms instead of 2 ms, and the first page's p99 tail with them
 * (decision 155's bursts). A server's objects are short lived almost without exception, so the
 * prediction gains it little and this mistake costs it much.
 *
 * Set here rather than as a flag on the command line so every way of starting the server (npm
 * start, the bench, a process manager calling node directly) has it; it takes effect for every
 * function compiled afterwards, which is all of the app's.
 */
v8.setFlagsFromString('--no-allocation-site-pretenuring');
