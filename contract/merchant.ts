import { Type, type Static, type TSchema } from 'typebox';
import { ETagHeader, Ore, Uuid, answer } from './common.ts';

/**
 * The merchant catalogue (API.md, "Merchant (public)"). A merchant's merchant code is never part
 * of any shape here that leaves the server, except the sandbox's demo list.
 */

export const MERCHANT_SOURCES = ['InStore', 'Charity', 'Code'] as const;
export const MerchantSource = Type.Union(
  [Type.Literal('InStore'), Type.Literal('Charity'), Type.Literal('Code')],
  {
    title: 'MerchantSource',
    description: 'InStore: redeemed at the till with the merchant code; Charity: a donation; Code: a code used online',
  },
);
export type MerchantSource = (typeof MERCHANT_SOURCES)[number];

/** Catalogue categories; the client shows each under its own translated label. */
export const MERCHANT_CATEGORIES = [
  'cafe',
  'restaurant',
  'books',
  'flowers',
  'cinema',
  'spa',
  'sport',
  'experience',
  'shopping',
  'charity',
] as const;
export const MerchantCategory = Type.Union([
  Type.Literal('cafe'),
  Type.Literal('restaurant'),
  Type.Literal('books'),
  Type.Literal('flowers'),
  Type.Literal('cinema'),
  Type.Literal('spa'),
  Type.Literal('sport'),
  Type.Literal('experience'),
  Type.Literal('shopping'),
  Type.Literal('charity'),
], { title: 'MerchantCategory' });
// The list above and MERCHANT_CATEGORIES must name the same categories.
const _sameCategories: [Static<typeof MerchantCategory>] extends [MerchantCategory] ? true : never = true;
void _sameCategories;
export type MerchantCategory = (typeof MERCHANT_CATEGORIES)[number];

/** Where an InStore voucher is used (API.md, Merchant `address`). */
export const MerchantAddress = Type.Object(
  {
    street: Type.String({ description: 'Street and number, e.g. "Skånegatan 73"' }),
    postalCode: Type.String({ description: 'Swedish postal code, "NNN NN"' }),
    city: Type.String(),
  },
  { $id: 'MerchantAddress', title: 'MerchantAddress', additionalProperties: false },
);
export type MerchantAddress = Static<typeof MerchantAddress>;

export const Merchant = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    description: Type.String(),
    logoUrl: Type.String({ description: 'Same-origin path or absolute URL of the logo (SVG or bitmap)' }),
    category: MerchantCategory,
    website: Type.Union([Type.String(), Type.Null()]),
    sources: Type.Array(MerchantSource, { description: 'What kinds of gifts the merchant offers' }),
    priceFrom: Type.Union([Ore, Type.Null()], {
      description: 'The smallest price or minimum amount among its products, in öre (null: no products yet)',
    }),
    address: Type.Union([MerchantAddress, Type.Null()], {
      description: 'Where an InStore voucher is used; null for charities and merchants with only codes',
    }),
    openingHours: Type.Union([Type.String(), Type.Null()], { description: 'Opening hours as the merchant writes them; null when not given' }),
    matchedProduct: Type.Optional(
      Type.String({
        description: 'GET /merchant/v2 with `q` only: the name of an active product a search word was found in, when the merchant\'s own name, description, category and city do not hold every word',
      }),
    ),
  },
  { $id: 'Merchant', title: 'Merchant', additionalProperties: false },
);
export type Merchant = Static<typeof Merchant>;

/** A product has either a fixed `price` or a `minAmount`/`maxAmount` range (value vouchers). */
export const Product = Type.Object(
  {
    id: Uuid,
    merchantId: Uuid,
    name: Type.String(),
    description: Type.String(),
    imageUrl: Type.String({ description: "The product's image, or its merchant's logo when it has none" }),
    source: MerchantSource,
    price: Type.Optional(Type.Integer({ minimum: 0, description: 'Fixed price in öre' })),
    minAmount: Type.Optional(Type.Integer({ minimum: 0, description: 'Smallest amount in öre (value voucher)' })),
    maxAmount: Type.Optional(Type.Integer({ minimum: 0, description: 'Largest amount in öre (value voucher)' })),
    validDays: Type.Integer({ minimum: 1, description: 'How many days a voucher for it stays valid' }),
    available: Type.Optional(
      Type.Boolean({
        description: 'Whether it can be chosen now: false for a "Code" product whose pool of codes is empty (always true otherwise)',
      }),
    ),
  },
  { $id: 'Product', title: 'Product', additionalProperties: false },
);
export type Product = Static<typeof Product>;

/** A catalogue answer: it carries an ETag, and a matching If-None-Match is answered 304 (decision 031). */
export function catalogueAnswer<T extends TSchema>(schema: T): T {
  return answer(schema, { headers: { ETag: ETagHeader } });
}

/** A conditional GET whose If-None-Match still matches: no body, the same ETag. */
export const NotModified = answer(Type.Null({ description: 'Not modified: the ETag in If-None-Match is still current' }), { headers: { ETag: ETagHeader } });

export const MERCHANT_PAGE_MAX = 100;
export const MERCHANT_PAGE_DEFAULT = 24;

export const MerchantListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        maxLength: 100,
        description: "Words in the merchant's name, description, category, city or its active products' names; case and accents do not matter",
      }),
    ),
    category: Type.Optional(MerchantCategory),
    source: Type.Optional(MerchantSource),
    cursor: Type.Optional(Type.String({ maxLength: 400, description: 'nextCursor from the previous page (opaque)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MERCHANT_PAGE_MAX, default: MERCHANT_PAGE_DEFAULT })),
  },
  { additionalProperties: false },
);
export type MerchantListQuery = Static<typeof MerchantListQuery>;

export const MerchantPage = Type.Object(
  {
    items: Type.Array(Merchant),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
  },
  { $id: 'MerchantPage', title: 'MerchantPage' },
);
export type MerchantPage = Static<typeof MerchantPage>;

/** GET /api/sandbox/merchants: the demo catalogue's merchant codes, for demos and tests. */
export const SandboxMerchant = Type.Object({
  id: Uuid,
  name: Type.String(),
  merchantCode: Type.Union([Type.String(), Type.Null()], { description: 'The demo code while it is unchanged; null once the owner (or the operator) has changed it' }),
  ownerNumber: Type.String({ description: "The demo merchant's owner's mobile number (E.164): signs in through the sandbox SMS like any other" }),
}, { $id: 'SandboxMerchant', title: 'SandboxMerchant' });
export type SandboxMerchant = Static<typeof SandboxMerchant>;

// ---- What an operator may write (the admin command line validates against these). ----

/** What till staff type: 4–16 letters and digits; compared without regard to case. */
export const MERCHANT_CODE_PATTERN = '^[A-Za-z0-9]{4,16}$';
export const MerchantCode = Type.String({ pattern: MERCHANT_CODE_PATTERN, description: '4–16 letters and digits' });

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Description = Type.String({ maxLength: 2000 });
const LogoUrl = Type.String({ minLength: 1, maxLength: 500, pattern: '^(/[^\\s]*|https://[^\\s]+)$' });
const Website = Type.Union([Type.String({ maxLength: 500, pattern: '^https?://[^\\s]+\\.[^\\s]+$' }), Type.Null()]);
const Sources = Type.Array(MerchantSource, { minItems: 1, maxItems: 3, uniqueItems: true });
const AddressInput = Type.Union([
  Type.Object(
    {
      street: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
      postalCode: Type.String({ pattern: '^[0-9]{3} ?[0-9]{2}$', description: 'NNN NN (the space may be left out)' }),
      city: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    },
    { additionalProperties: false },
  ),
  Type.Null(),
]);
const OpeningHours = Type.Union([Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }), Type.Null()]);

export const MerchantCreate = Type.Object(
  {
    name: Name,
    description: Description,
    logoUrl: LogoUrl,
    category: MerchantCategory,
    website: Website,
    sources: Sources,
    merchantCode: MerchantCode,
    address: Type.Optional(AddressInput),
    openingHours: Type.Optional(OpeningHours),
  },
  { additionalProperties: false },
);
export type MerchantCreate = Static<typeof MerchantCreate>;

export const MerchantUpdate = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    logoUrl: Type.Optional(LogoUrl),
    category: Type.Optional(MerchantCategory),
    website: Type.Optional(Website),
    sources: Type.Optional(Sources),
    address: Type.Optional(AddressInput),
    openingHours: Type.Optional(OpeningHours),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MerchantUpdate = Static<typeof MerchantUpdate>;

/** Largest amount a product may carry: 100 000 kr. */
export const MAX_PRODUCT_ORE = 10_000_000;
const Amount = Type.Integer({ minimum: 100, maximum: MAX_PRODUCT_ORE, description: 'öre, at least 1 kr' });

const ProductFields = {
  name: Name,
  description: Description,
  imageUrl: Type.Union([LogoUrl, Type.Null()]),
  source: MerchantSource,
  price: Type.Union([Amount, Type.Null()]),
  minAmount: Type.Union([Amount, Type.Null()]),
  maxAmount: Type.Union([Amount, Type.Null()]),
  validDays: Type.Integer({ minimum: 1, maximum: 3650 }),
};

export const ProductCreate = Type.Object(
  { merchantId: Uuid, ...ProductFields },
  { additionalProperties: false },
);
export type ProductCreate = Static<typeof ProductCreate>;

export const ProductUpdate = Type.Object(
  {
    name: Type.Optional(ProductFields.name),
    description: Type.Optional(ProductFields.description),
    imageUrl: Type.Optional(ProductFields.imageUrl),
    source: Type.Optional(ProductFields.source),
    price: Type.Optional(ProductFields.price),
    minAmount: Type.Optional(ProductFields.minAmount),
    maxAmount: Type.Optional(ProductFields.maxAmount),
    validDays: Type.Optional(ProductFields.validDays),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ProductUpdate = Static<typeof ProductUpdate>;
