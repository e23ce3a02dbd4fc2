import { Type, type Static } from 'typebox';
import { GreetieMedia } from './greetie.ts';
import { Uuid, answer } from './common.ts';

/**
 * Media uploads and the media files themselves (API.md "Greetie": media, mediaoverlay, picture;
 * GET /api/media/{storageKey}). Limits are checked from the bytes while they stream in.
 */

export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 100 * 1024 * 1024;
export const OVERLAY_MAX_BYTES = 5 * 1024 * 1024;
/** A client-made video poster (a frame drawn to a canvas). */
export const POSTER_MAX_BYTES = 5 * 1024 * 1024;
export const VIDEO_MAX_SECONDS = 60;
/** The photo and video limits in MB, as the product text tells them. */
export const UPLOAD_LIMITS_MB = { photoMb: PHOTO_MAX_BYTES / 1024 / 1024, videoMb: VIDEO_MAX_BYTES / 1024 / 1024 } as const;

/** The photo and video types accepted, as recognised from the file's first bytes. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic'] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'] as const;
export const OVERLAY_TYPES = ['image/png', 'image/webp'] as const;

/**
 * Other names for an accepted type. file-type and some browsers call a HEIC photo by its container,
 * `image/heif`, and an M4V by its own name: the same files, accepted and stored as the type named.
 */
export const TYPE_ALIASES: Readonly<Record<string, string>> = { 'image/heif': 'image/heic', 'video/x-m4v': 'video/mp4' };

/** What a file's name says it is, for browsers that give HEIC photos and MOV videos no type. */
const TYPE_BY_ENDING: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heic',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** A declared type (a browser File's `type`) as the lists above name it: lower case, aliases resolved. */
export function mediaTypeOf(declared: string): string {
  const type = declared.toLowerCase();
  return TYPE_ALIASES[type] ?? type;
}

/** The type a file's name ending claims ('' when it claims none the lists above hold). */
export function mediaTypeOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : (TYPE_BY_ENDING[name.slice(dot + 1).toLowerCase()] ?? '');
}

export const isPhotoType = (type: string): boolean => (PHOTO_TYPES as readonly string[]).includes(type);
export const isVideoType = (type: string): boolean => (VIDEO_TYPES as readonly string[]).includes(type);

/** What a file picker offers for a photo: the photo types and their other names. */
export const PHOTO_ACCEPT = [...PHOTO_TYPES, ...Object.keys(TYPE_ALIASES).filter((a) => isPhotoType(TYPE_ALIASES[a] ?? ''))].join(',');

/** A storage key: ≥ 128 random bits in base64url, optionally with a short extension (media_file's CHECK). */
export const STORAGE_KEY_PATTERN = '^[A-Za-z0-9_-]{22,64}(\\.[a-z0-9]{1,5})?$';

export const MediaFileParams = Type.Object({
  storageKey: Type.String({ pattern: STORAGE_KEY_PATTERN, description: 'The unguessable key of a stored file' }),
});
export type MediaFileParams = Static<typeof MediaFileParams>;

export const MediaFileQuery = Type.Object(
  {
    exp: Type.Optional(Type.Integer({ minimum: 0, maximum: 99999999999, description: 'Draft media: when the signature expires (Unix seconds)' })),
    sig: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: "Draft media: the server's signature of the key and exp" })),
  },
  { additionalProperties: false },
);
export type MediaFileQuery = Static<typeof MediaFileQuery>;

const binary = (description: string) => Type.Unsafe<unknown>({ type: 'string', format: 'binary', description });

/**
 * The multipart bodies, for the OpenAPI document: the route reads the parts as a stream and checks
 * them itself. The body is not parsed before the handler, so the validator sees null: allowed here.
 */
const multipart = (properties: Record<string, unknown>, required: string[]) => ({
  content: { 'multipart/form-data': { schema: Type.Unsafe({ type: ['object', 'null'], properties, required }) } },
});

export const MediaUploadBody = multipart(
  {
    file: binary(
      `The photo (JPEG, PNG, WebP or HEIC, ≤ ${PHOTO_MAX_BYTES / 1024 / 1024} MB) or video (MP4, WebM or MOV, ≤ ${VIDEO_MAX_BYTES / 1024 / 1024} MB, ≤ ${VIDEO_MAX_SECONDS} s); the type is read from the bytes`,
    ),
    poster: binary(`Optional, for a video: a still to show before it plays (JPEG, PNG or WebP, ≤ ${POSTER_MAX_BYTES / 1024 / 1024} MB), e.g. a frame drawn to a canvas`),
  },
  ['file'],
);
export const OverlayUploadBody = multipart(
  { file: binary(`The content flattened to one image: PNG or WebP, ≤ ${OVERLAY_MAX_BYTES / 1024 / 1024} MB`) },
  ['file'],
);
export const PictureUploadBody = multipart({ file: binary(`A photo (JPEG, PNG, WebP or HEIC, ≤ ${PHOTO_MAX_BYTES / 1024 / 1024} MB)`) }, ['file']);

/** The types a stored file is served as: photos are re-encoded to JPEG, PNG or WebP; videos are kept as sent. */
export const SERVED_TYPES = ['image/jpeg', 'image/png', 'image/webp', ...VIDEO_TYPES] as const;

/** GET /api/media/{storageKey}: the file's bytes, as its own media type (Content-Type). */
const servedFile = (description: string, headers: Record<string, unknown>) => ({
  description,
  headers,
  content: Object.fromEntries(SERVED_TYPES.map((type) => [type, { schema: binary(description) }])),
});
const ETag = Type.String({ description: 'Strong: the key (a stored file never changes)' });
export const MediaFileAnswer = servedFile('The whole file', { ETag });
export const MediaRangeAnswer = servedFile('The requested range', {
  ETag,
  'Content-Range': Type.String({ description: '`bytes a-b/size`: the range sent, of the whole size' }),
});
export const MediaNotModified = answer(Type.Null({ description: 'Not modified: If-None-Match names the ETag' }), { headers: { ETag } });

/**
 * The request headers GET /api/media/{storageKey} reads. Any value is taken (one the route cannot
 * use is passed over: a malformed Range gets the whole file), so no limits here.
 */
export const MediaFileHeaders = Type.Object({
  Range: Type.Optional(Type.String({ description: 'One byte range, `bytes=a-b`, `bytes=a-` or `bytes=-n` (206; 416 when unsatisfiable)' })),
  'If-None-Match': Type.Optional(Type.String({ description: 'The ETag already held: 304 when it matches' })),
  'If-Range': Type.Optional(Type.String({ description: 'The Range applies only while the ETag still matches' })),
});

/** POST /greetie/{id}/picture: the URL to put in a `picture` content element's value. */
export const PictureAnswer = Type.Object(
  { url: Type.String({ description: 'The picture (/api/media/{key})' }) },
  { $id: 'PictureAnswer', title: 'PictureAnswer' },
);
export type PictureAnswer = Static<typeof PictureAnswer>;

/** What media and mediaoverlay answer: the greetie's id, status and media. */
export const MediaUploadAnswer = Type.Object(
  {
    id: Uuid,
    status: Type.String(),
    media: Type.Union([GreetieMedia, Type.Null()]),
  },
  { $id: 'MediaUploadAnswer', title: 'MediaUploadAnswer' },
);
export type MediaUploadAnswer = Static<typeof MediaUploadAnswer>;
