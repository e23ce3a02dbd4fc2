import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { mediaPath } from '../mediaUrls.ts';

/**
 * The greetie a recipient opens, painted before any script (decision 090).
 *
 * GET /greetie/view/{refId} answers index.html with the delivered greetie's first frame in it: a
 * `<link rel="preload" as="image" fetchpriority="high">` in the head, and a sized `<img>` of the
 * same file in #boot-frame, laid out by index.html's critical CSS exactly where the view page draws
 * its stage (src/pages/greetie/view/). The frame sits outside #root, over the app's loading
 * screens, until the page's own image of it has loaded (then the page removes it): the largest
 * paint happens as soon as the image arrives, not after the app's code, the route's chunk and the
 * byRef read.
 *
 * Nothing else about the greetie goes into the HTML (no names, numbers, text or gifts), and
 * reading it does not mark the greetie viewed (the page's byRef read does). Answers with a frame
 * are `private, no-cache`: no shared cache keeps a page that names one greetie's photo.
 */

/** The column's CHECK on greetie.ref_id (004_greetie), with a length cap: anything else is no ref. */
const REF_ID = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * The URL of a delivered greetie's first frame, as the view page's first <img> has it
 * (GreetieStage: a photo's small copy, else the photo; a video's poster, else none). One query on
 * greetie's unique ref_id and media_file (greetie_id, role). Undefined: no such delivered greetie,
 * or one without a frame to show.
 */
export async function firstFrameByRef(db: Db, refId: string): Promise<string | undefined> {
  if (!REF_ID.test(refId)) return undefined;
  const files = await db
    .selectFrom('greetie as g')
    .innerJoin('media_file as m', 'm.greetie_id', 'g.id')
    .select(['m.role', 'm.kind', 'm.storage_key'])
    .where('g.ref_id', '=', refId)
    .where('g.status', '=', 'delivered')
    .where('m.role', 'in', ['media', 'thumbnail'])
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
  // The latest of each role, as the greetie's answers pick them (server/greetie/rules.ts, toMedia).
  const latest = (role: string) => files.filter((f) => f.role === role).at(-1);
  const media = latest('media');
  if (!media) return undefined;
  const thumbnail = latest('thumbnail');
  if (media.kind === 'video') return thumbnail ? mediaPath(thumbnail.storage_key) : undefined;
  return mediaPath((thumbnail ?? media).storage_key);
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html cut once at start where the frame goes: the preload after `<meta charset>`, the
 * header of the static shell left out (the view's layout has none), the frame before `</body>`.
 * Null when index.html does not have those places (then every answer is the plain file).
 */
export function viewShellTemplate(html: string): ((frameUrl: string) => string) | null {
  const charset = /<meta charset[^>]*>/i.exec(html);
  const bodyEnd = html.lastIndexOf('</body>');
  if (!charset || bodyEnd === -1) return null;
  const afterCharset = charset.index + charset[0].length;
  const head = html.slice(0, afterCharset);
  const body = html.slice(afterCharset, bodyEnd).replace(/<header class="boot-header">[\s\S]*?<\/header>/, '');
  const end = html.slice(bodyEnd);
  return (frameUrl) => {
    const url = escapeAttr(frameUrl);
    return (
      `${head}\n    <link rel="preload" as="image" fetchpriority="high" href="${url}" />` +
      body +
      // aria-hidden and no alt text: the page's own image (which has them) replaces this one.
      `  <div id="boot-frame" class="boot-frame" aria-hidden="true"><div class="boot-frame-page"><div class="boot-stage">` +
      `<img id="boot-frame-img" src="${url}" width="1080" height="1350" alt="" fetchpriority="high" /></div></div></div>\n  ` +
      end
    );
  };
}

export interface ViewShell {
  /** Sends index.html with the frame for a delivered greetie's ref; false (nothing sent) otherwise. */
  send(refId: string, req: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

/** `html`: index.html as the server answers it (server/spa/shell.ts: the entry's CSS inlined). */
export function createViewShell(html: string, db: Db): ViewShell {
  const template = viewShellTemplate(html);
  return {
    async send(refId, req, reply) {
      if (!template) return false;
      const frame = await firstFrameByRef(db, refId);
      if (!frame) return false;
      const page = template(frame);
      reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
      // One page per greetie: gzip at a cheap level per answer (the shared pages are prepared once).
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        await reply.header('content-encoding', 'gzip').send(gzipSync(page, { level: 6 }));
      } else {
        await reply.send(page);
      }
      return true;
    },
  };
}
