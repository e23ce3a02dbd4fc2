import { Type, type Static } from 'typebox';
import { DateTime, LinkNext, Ore, Uuid, answer } from './common.ts';
import { MerchantSource } from './merchant.ts';
import { ANIMATIONS, STICKERS, TEXT_COLORS, TEXT_FONTS } from './catalogue.ts';
import { Voucher } from './voucher.ts';
import { NAME_MAX_LENGTH } from './name.ts';

// The Voucher shape is contract/voucher.ts's; greeties carry it, so it is named here too.
export { Voucher };

/**
 * Greeties (API.md "Greetie"): the content a sender dresses a photo or video with, the
 * greetie itself, and the bodies of the calls that create, change and read one.
 */

// ---- Content elements ----

export const CONTENT_TYPES = ['emoji', 'lottie', 'text', 'sticker', 'picture'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** At most this many elements on one greetie. */
export const CONTENT_MAX_ELEMENTS = 30;
/** A text element's value, in characters (UTF-16 code units, as the browser counts them). */
export const TEXT_MAX_LENGTH = 200;
/** An emoji element's value: one emoji, which may be a sequence (flags, skin tones, families). */
export const EMOJI_MAX_LENGTH = 32;
export const SCALE_MIN = 0.1;
export const SCALE_MAX = 10;
/** Degrees, clockwise. */
export const ROTATION_MIN = -360;
export const ROTATION_MAX = 360;

/**
 * A picture element's value: the URL POST /greetie/{id}/picture answered, a media file of the
 * same greetie (`/api/media/{storageKey}`).
 */
export const MEDIA_URL_PATTERN = '^/api/media/[A-Za-z0-9_-]{22,}(\\.[a-z0-9]{1,5})?$';

const placement = {
  /** Optional client-side key (a stable id for lists and selection); the server keeps it as given. */
  id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$', description: 'Client-chosen key of the element' })),
  x: Type.Number({ minimum: 0, maximum: 1, description: "The element's centre, 0..1 of the media frame's width" }),
  y: Type.Number({ minimum: 0, maximum: 1, description: "The element's centre, 0..1 of the media frame's height" }),
  scale: Type.Number({ minimum: SCALE_MIN, maximum: SCALE_MAX, description: '1 is the natural size' }),
  rotation: Type.Number({ minimum: ROTATION_MIN, maximum: ROTATION_MAX, description: 'Degrees, clockwise' }),
};

export const TextStyle = Type.Object(
  {
    font: Type.Optional(Type.Enum(TEXT_FONTS)),
    color: Type.Optional(Type.Enum(TEXT_COLORS)),
  },
  { additionalProperties: false, description: "The text's font and colour from the app's theme (contract/catalogue.ts)" },
);
export type TextStyle = Static<typeof TextStyle>;

export const EmojiElement = Type.Object(
  {
    type: Type.Literal('emoji'),
    value: Type.String({ minLength: 1, maxLength: EMOJI_MAX_LENGTH, description: 'One emoji (a Unicode emoji sequence)' }),
    ...placement,
  },
  { additionalProperties: false },
);
export const LottieElement = Type.Object(
  {
    type: Type.Literal('lottie'),
    value: Type.Enum(ANIMATIONS),
    ...placement,
  },
  { additionalProperties: false, description: "An animation from the app's catalogue, played from /lottie/{value}.json" },
);
export const TextElement = Type.Object(
  {
    type: Type.Literal('text'),
    value: Type.String({ minLength: 1, maxLength: TEXT_MAX_LENGTH, pattern: '\\S' }),
    style: Type.Optional(TextStyle),
    ...placement,
  },
  { additionalProperties: false },
);
export const StickerElement = Type.Object(
  {
    type: Type.Literal('sticker'),
    value: Type.Enum(STICKERS),
    ...placement,
  },
  { additionalProperties: false, description: "A sticker from the app's catalogue, drawn from /stickers/{value}.svg" },
);
export const PictureElement = Type.Object(
  {
    type: Type.Literal('picture'),
    value: Type.String({ pattern: MEDIA_URL_PATTERN, description: 'The url POST /greetie/{id}/picture answered for this greetie' }),
    ...placement,
  },
  { additionalProperties: false },
);

/** API.md "ContentElement"; told apart by `type`. */
export const ContentElement = Type.Union([EmojiElement, LottieElement, TextElement, StickerElement, PictureElement], {
  $id: 'ContentElement',
  title: 'ContentElement',
});
export type ContentElement = Static<typeof ContentElement>;

export const Content = Type.Array(ContentElement, {
  maxItems: CONTENT_MAX_ELEMENTS,
  description: `At most ${CONTENT_MAX_ELEMENTS} elements, drawn in order (the last on top)`,
});
export type Content = Static<typeof Content>;

// ---- The greetie ----

export const GREETIE_STATUSES = ['draft', 'awaitingPayment', 'scheduled', 'delivered', 'deliveryFailed', 'cancelled'] as const;
export const GreetieStatus = Type.Enum(GREETIE_STATUSES, { title: 'GreetieStatus' });
export type GreetieStatus = (typeof GREETIE_STATUSES)[number];

export const MESSAGE_MAX_LENGTH = 1000;
/** The recipient's name follows the one name rule (contract/name.ts). */
export const RECIPIENT_NAME_MAX_LENGTH = NAME_MAX_LENGTH;
export const GIFTS_MAX = 10;
/** deliverAt may be at most this far ahead. */
export const DELIVER_AT_MAX_DAYS = 365;

export const GreetieMedia = Type.Object(
  {
    kind: Type.Union([Type.Literal('photo'), Type.Literal('video')]),
    url: Type.String({ description: 'The photo or video (/api/media/{key}; range requests work)' }),
    thumbnailUrl: Type.Union([Type.String(), Type.Null()], { description: "A photo's small copy, a video's poster" }),
    overlayUrl: Type.Union([Type.String(), Type.Null()], { description: 'The content flattened to one image' }),
  },
  { $id: 'GreetieMedia', title: 'GreetieMedia' },
);
export type GreetieMedia = Static<typeof GreetieMedia>;

/** One gift of a greetie: a product and its amount in öre, fixed by the server. */
export const GreetieGift = Type.Object(
  {
    productId: Uuid,
    productName: Type.String(),
    merchantId: Uuid,
    merchantName: Type.String(),
    source: MerchantSource,
    amount: Ore,
  },
  { $id: 'GreetieGift', title: 'GreetieGift' },
);
export type GreetieGift = Static<typeof GreetieGift>;

/** The recipient's thank-you, in characters (UTF-16 code units, as the browser counts them). */
export const THANKS_MAX_LENGTH = 500;

export const GreetieThanks = Type.Object(
  {
    message: Type.String({ description: `1 to ${THANKS_MAX_LENGTH} characters` }),
    emoji: Type.Union([Type.String(), Type.Null()], { description: 'One emoji, or null' }),
    createdAt: DateTime,
  },
  { $id: 'GreetieThanks', title: 'GreetieThanks' },
);
export type GreetieThanks = Static<typeof GreetieThanks>;

const greetieFields = {
  id: Uuid,
  refId: Type.String({ description: "The public reference in the recipient's link /greetie/view/{refId}" }),
  status: GreetieStatus,
  sender: Type.Object({
    id: Type.Union([Uuid, Type.Null()], { description: 'null once the sender has removed their account' }),
    name: Type.Union([Type.String(), Type.Null()]),
  }),
  recipient: Type.Union(
    [Type.Object({ name: Type.Union([Type.String(), Type.Null()]), mobileNumber: Type.String({ description: 'E.164' }) }), Type.Null()],
    { description: 'null while a draft has none' },
  ),
  message: Type.String(),
  content: Content,
  media: Type.Union([GreetieMedia, Type.Null()], { description: 'null until a photo or video is uploaded' }),
  gifts: Type.Array(GreetieGift, { description: 'What the sender chose (the vouchers are issued from these once paid)' }),
  vouchers: Type.Array(Voucher),
  total: Type.Integer({ minimum: 0, description: 'The sum of the gifts in öre, computed by the server' }),
  deliverAt: Type.Union([DateTime, Type.Null()], { description: 'When to deliver; null: at once when sent or paid' }),
  deliveredAt: Type.Union([DateTime, Type.Null()]),
  viewed: Type.Boolean(),
  viewedAt: Type.Union([DateTime, Type.Null()]),
  thanks: Type.Union([GreetieThanks, Type.Null()], { description: "The recipient's thank-you (POST /greetie/{id}/thanks), once; null until then" }),
  cancelledAt: Type.Union([DateTime, Type.Null()], {
    description: 'When its sender cancelled it (or it was cancelled unclaimed); its link answers 404 and its vouchers are void from then on',
  }),
  createdAt: DateTime,
  updatedAt: DateTime,
};

export const Greetie = Type.Object(greetieFields, { $id: 'Greetie', title: 'Greetie' });
export type Greetie = Static<typeof Greetie>;

/**
 * GET /greetie/byRef: the public view of a delivered greetie, for anyone holding its reference.
 * No phone numbers (the recipient has a name only) and no voucher codes.
 */
export const PublicGreetie = Type.Object(
  {
    ...greetieFields,
    recipient: Type.Union([Type.Object({ name: Type.Union([Type.String(), Type.Null()]) }), Type.Null()], { description: 'The name only, never the number' }),
    vouchers: Type.Array(Voucher, { description: 'What was given, never a code' }),
  },
  { $id: 'PublicGreetie', title: 'PublicGreetie' },
);
export type PublicGreetie = Static<typeof PublicGreetie>;

export const REF_ID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

export const ByRefQuery = Type.Object(
  { refId: Type.String({ pattern: REF_ID_PATTERN, description: "The reference from the recipient's link /greetie/view/{refId}" }) },
  { additionalProperties: false },
);
export type ByRefQuery = Static<typeof ByRefQuery>;

// ---- Requests ----

export const RecipientInput = Type.Object(
  {
    mobileNumber: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'A Swedish mobile number in any common form ("070-123 45 67", "+46701234567"); stored as E.164',
    }),
    name: Type.Optional(
      Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
        description: `Blank: no name. Otherwise trimmed, 1 to ${RECIPIENT_NAME_MAX_LENGTH} characters, the name rule of contract/name.ts (no link, domain name, phone number, control or invisible character)`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type RecipientInput = Static<typeof RecipientInput>;

/** POST /greetie/{id}/recipient: the corrected recipient (the name rule applies to `name`). */
export const RecipientCorrection = Type.Object(
  { mobileNumber: RecipientInput.properties.mobileNumber, name: RecipientInput.properties.name },
  { additionalProperties: false },
);
export type RecipientCorrection = Static<typeof RecipientCorrection>;

/** POST /greetie/{id}/thanks. */
export const ThanksInput = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: THANKS_MAX_LENGTH, description: `The thank-you, 1 to ${THANKS_MAX_LENGTH} characters (not only spaces)` }),
    emoji: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: EMOJI_MAX_LENGTH }), Type.Null()], { description: 'One emoji (a Unicode emoji sequence), or none' }),
    ),
  },
  { additionalProperties: false },
);
export type ThanksInput = Static<typeof ThanksInput>;

export const GiftInput = Type.Object(
  {
    productId: Uuid,
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description: "öre: required for a value voucher (inside the product's min/max); for a fixed-price product only its price is accepted",
      }),
    ),
  },
  { additionalProperties: false },
);
export type GiftInput = Static<typeof GiftInput>;

const Message = Type.String({ maxLength: MESSAGE_MAX_LENGTH });
const Gifts = Type.Array(GiftInput, { maxItems: GIFTS_MAX, description: `At most ${GIFTS_MAX}; the total is computed by the server` });
const DeliverAt = Type.String({ format: 'date-time', description: 'In the future, at most one year ahead (ISO-8601)' });

const createFields = {
  recipient: Type.Optional(RecipientInput),
  message: Type.Optional(Message),
  content: Type.Optional(Content),
  deliverAt: Type.Optional(Type.Union([DeliverAt, Type.Null()])),
};

/** POST /greetie: a draft without gifts; nothing is required. */
export const GreetieCreate = Type.Object(createFields, { additionalProperties: false });
export type GreetieCreate = Static<typeof GreetieCreate>;

/** POST /greetie/createv2: the same, with gifts. */
export const GreetieCreateV2 = Type.Object({ ...createFields, gifts: Type.Optional(Gifts) }, { additionalProperties: false });
export type GreetieCreateV2 = Static<typeof GreetieCreateV2>;

/**
 * PATCH /greetie/{id}: the fields given replace the draft's; `recipient: null` and
 * `deliverAt: null` clear them, `gifts` replaces the whole list.
 */
export const GreetieUpdate = Type.Object(
  {
    recipient: Type.Optional(Type.Union([RecipientInput, Type.Null()])),
    message: Type.Optional(Message),
    content: Type.Optional(Content),
    gifts: Type.Optional(Gifts),
    deliverAt: Type.Optional(Type.Union([DeliverAt, Type.Null()])),
  },
  { additionalProperties: false },
);
export type GreetieUpdate = Static<typeof GreetieUpdate>;

export const GREETIE_PAGE_MAX = 100;
export const GREETIE_PAGE_DEFAULT = 50;

export const GreetieListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: GREETIE_PAGE_MAX, default: GREETIE_PAGE_DEFAULT })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'From the previous answer\'s `Link: <…>; rel="next"` header (opaque)' })),
  },
  { additionalProperties: false },
);
export type GreetieListQuery = Static<typeof GreetieListQuery>;

/** A page of greeties (GET /greetie and the mobile user's lists): the next page's address is in `Link`. */
export const GreetieList = answer(Type.Array(Greetie), { description: 'A page of greeties, newest first', headers: { Link: LinkNext } });

export const GreetieReadQuery = Type.Object(
  {
    markAsViewed: Type.Optional(Type.Boolean({ default: true, description: 'The recipient reading a delivered greetie marks it viewed' })),
  },
  { additionalProperties: false },
);
export type GreetieReadQuery = Static<typeof GreetieReadQuery>;

/** GET /greetie/{id}/info: what anyone with the id may see (a link preview, the sign-in page). */
export const GreetieInfo = Type.Object(
  {
    id: Uuid,
    senderName: Type.Union([Type.String(), Type.Null()]),
    recipientName: Type.Union([Type.String(), Type.Null()]),
    hasGifts: Type.Boolean(),
    thumbnailUrl: Type.Union([Type.String(), Type.Null()], { description: 'The overlay or thumbnail image, null without media' }),
  },
  { $id: 'GreetieInfo', title: 'GreetieInfo' },
);
export type GreetieInfo = Static<typeof GreetieInfo>;
