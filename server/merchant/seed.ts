import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { transaction } from '../db/index.ts';
import type { MerchantAddress, MerchantCategory, MerchantSource } from '../../contract/merchant.ts';
import { hashMerchantCode } from './code.ts';

/**
 * The demo catalogue seeded into an empty database: fictional Swedish merchants, each with its own
 * logo in public/merchants/. Their merchant codes are demo data, not secrets: they stay readable
 * here so the sandbox (GET /api/sandbox/merchants) can show them for demos and tests, while the
 * database keeps only their hashes. Ids are fixed so demos and browser tests can link to them.
 */

export interface DemoProduct {
  name: string;
  description: string;
  source: MerchantSource;
  /** Öre. Either a fixed price… */
  price?: number;
  /** …or a range for a value voucher. */
  minAmount?: number;
  maxAmount?: number;
  validDays: number;
}

export interface DemoMerchant {
  id: string;
  name: string;
  description: string;
  category: MerchantCategory;
  website: string | null;
  sources: MerchantSource[];
  merchantCode: string;
  logo: string;
  /** Where its InStore vouchers are used; none for charities and code-only merchants. */
  address: MerchantAddress | null;
  openingHours: string | null;
  products: DemoProduct[];
}

const kr = (n: number) => n * 100;
const id = (n: number) => `4d0e1a2b-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * The demo merchant's owner's mobile number: from the range the Swedish regulator (PTS) keeps for
 * fiction, 070-174 06 05 – 070-174 06 99, so no real person gets the demo's SMS. Merchant n
 * (its id's last digits) has 070-174 06 (04 + n).
 */
export function demoOwnerNumber(m: DemoMerchant): string {
  const n = Number.parseInt(m.id.slice(-12), 10);
  return `+467017406${String(4 + n).padStart(2, '0')}`;
}

/** Demo products have fixed ids too: the merchant's number and the product's place. */
export function demoProductId(m: DemoMerchant, index: number): string {
  const n = Number.parseInt(m.id.slice(-12), 10);
  return `4d0e1a2b-0001-4000-8000-${String(n * 100 + index + 1).padStart(12, '0')}`;
}

export const demoMerchants: DemoMerchant[] = [
  {
    id: id(1),
    name: 'Café Kanelbullen',
    description: 'Kvarterscafé på Södermalm i Stockholm med nybakade kanelbullar, surdegsbröd och kaffe från lokala rosterier.',
    category: 'cafe',
    website: 'https://kanelbullen.example',
    sources: ['InStore', 'Code'],
    merchantCode: 'KANEL2481',
    logo: 'kanelbullen.svg',
    address: { street: 'Skånegatan 73', postalCode: '116 37', city: 'Stockholm' },
    openingHours: 'Mån–fre 7–18, lör–sön 9–17',
    products: [
      { name: 'Kaffe och kanelbulle', description: 'En kopp bryggkaffe eller te och en nybakad kanelbulle.', source: 'InStore', price: kr(65), validDays: 365 },
      { name: 'Fika för två', description: 'Två valfria kaffedrycker och två bakverk ur disken.', source: 'InStore', price: kr(149), validDays: 365 },
      { name: 'Presentkort', description: 'Ett värdebevis att använda på allt i caféet.', source: 'Code', minAmount: kr(100), maxAmount: kr(1000), validDays: 365 },
    ],
  },
  {
    id: id(2),
    name: 'Bistro Bryggan',
    description: 'Säsongens råvaror från västkusten, serverade vid kajen i Göteborg. Skaldjur, fisk och vegetariskt.',
    category: 'restaurant',
    website: 'https://bistrobryggan.example',
    sources: ['InStore'],
    merchantCode: 'BRYGGA7315',
    logo: 'bryggan.svg',
    address: { street: 'Stora Badhusgatan 14', postalCode: '411 21', city: 'Göteborg' },
    openingHours: 'Tis–lör 11.30–22, sön–mån stängt',
    products: [
      { name: 'Lunch för en', description: 'Dagens lunch med sallad, bröd och kaffe.', source: 'InStore', price: kr(145), validDays: 180 },
      { name: 'Middag för två', description: 'Tre rätter för två personer, dryck ingår inte.', source: 'InStore', price: kr(895), validDays: 365 },
      { name: 'Presentkort', description: 'Valfritt belopp att äta och dricka för.', source: 'InStore', minAmount: kr(200), maxAmount: kr(2000), validDays: 365 },
    ],
  },
  {
    id: id(3),
    name: 'Bokhandeln Ord & Bild',
    description: 'Oberoende bokhandel i Uppsala med skönlitteratur, barnböcker och serieromaner. Vi hjälper gärna till att välja.',
    category: 'books',
    website: 'https://ordochbild.example',
    sources: ['InStore', 'Code'],
    merchantCode: 'BOKEN5520',
    logo: 'ordochbild.svg',
    address: { street: 'Drottninggatan 9', postalCode: '753 10', city: 'Uppsala' },
    openingHours: 'Mån–fre 10–18, lör 10–16, sön stängt',
    products: [
      { name: 'Pocketbok', description: 'Valfri pocketbok ur hyllorna.', source: 'InStore', price: kr(129), validDays: 365 },
      { name: 'Inbunden bok', description: 'Valfri inbunden bok upp till 299 kr.', source: 'InStore', price: kr(299), validDays: 365 },
      { name: 'Presentkort i webbutiken', description: 'En kod att använda i vår webbutik.', source: 'Code', minAmount: kr(100), maxAmount: kr(1000), validDays: 730 },
    ],
  },
  {
    id: id(4),
    name: 'Blomsterateljén Vildros',
    description: 'Buketter och växter efter säsong från en liten blomsterbutik i Malmö. Svenskodlat när det går.',
    category: 'flowers',
    website: 'https://vildros.example',
    sources: ['InStore'],
    merchantCode: 'VILDROS408',
    logo: 'vildros.svg',
    address: { street: 'Davidshallsgatan 12', postalCode: '211 45', city: 'Malmö' },
    openingHours: 'Mån–fre 10–18, lör 10–15',
    products: [
      { name: 'Säsongens bukett', description: 'En bukett med det vackraste just nu, bunden på plats.', source: 'InStore', price: kr(349), validDays: 90 },
      { name: 'Tio rosor', description: 'Tio rosor i valfri färg.', source: 'InStore', price: kr(299), validDays: 90 },
      { name: 'Krukväxt', description: 'En grön krukväxt med kruka.', source: 'InStore', price: kr(249), validDays: 180 },
    ],
  },
  {
    id: id(5),
    name: 'Bio Stjärnan',
    description: 'Kvartersbio i Umeå med en stor och en liten salong, premiärer och klassiker.',
    category: 'cinema',
    website: 'https://biostjarnan.example',
    sources: ['Code'],
    merchantCode: 'STJARNA66',
    logo: 'stjarnan.svg',
    address: null,
    openingHours: null,
    products: [
      { name: 'Biobiljett', description: 'En biljett till valfri föreställning.', source: 'Code', price: kr(145), validDays: 365 },
      { name: 'Bio för två med popcorn', description: 'Två biljetter, två popcorn och två drycker.', source: 'Code', price: kr(399), validDays: 365 },
    ],
  },
  {
    id: id(6),
    name: 'Fjällbadets Spa',
    description: 'Spa med utsikt över fjällen i Åre: bastu, varma pooler och behandlingar för kropp och själ.',
    category: 'spa',
    website: 'https://fjallbadet.example',
    sources: ['InStore'],
    merchantCode: 'SPA90210',
    logo: 'fjallbadet.svg',
    address: { street: 'Årevägen 82', postalCode: '837 52', city: 'Åre' },
    openingHours: 'Alla dagar 10–20',
    products: [
      { name: 'Massage 50 minuter', description: 'Klassisk helkroppsmassage.', source: 'InStore', price: kr(895), validDays: 365 },
      { name: 'Spadag', description: 'Entré till bad och bastu, lunch och en ansiktsbehandling.', source: 'InStore', price: kr(1295), validDays: 365 },
      { name: 'Presentkort', description: 'Valfritt belopp för behandlingar och entré.', source: 'InStore', minAmount: kr(500), maxAmount: kr(5000), validDays: 365 },
    ],
  },
  {
    id: id(7),
    name: 'Löparbutiken Fart',
    description: 'Skor, kläder och löpanalys i Linköping. Vi springer själva och hjälper dig hitta rätt sko.',
    category: 'sport',
    website: 'https://lopfart.example',
    sources: ['InStore', 'Code'],
    merchantCode: 'FART1234',
    logo: 'fart.svg',
    address: { street: 'Storgatan 31', postalCode: '582 23', city: 'Linköping' },
    openingHours: 'Mån–fre 10–18, lör 10–15',
    products: [
      { name: 'Löpanalys', description: 'Filmad löpanalys med en av våra tränare, 45 minuter.', source: 'InStore', price: kr(495), validDays: 365 },
      { name: 'Presentkort i butiken', description: 'Valfritt belopp att handla för i butiken.', source: 'InStore', minAmount: kr(200), maxAmount: kr(3000), validDays: 365 },
      { name: 'Presentkort online', description: 'En kod att använda i webbutiken.', source: 'Code', minAmount: kr(200), maxAmount: kr(3000), validDays: 365 },
    ],
  },
  {
    id: id(8),
    name: 'Klätterhallen Greppet',
    description: 'Bouldering och replätter för alla nivåer i Västerås. Skor och utrustning finns att hyra.',
    category: 'sport',
    website: 'https://greppet.example',
    sources: ['InStore'],
    merchantCode: 'GREPP777',
    logo: 'greppet.svg',
    address: { street: 'Kopparbergsvägen 45', postalCode: '722 13', city: 'Västerås' },
    openingHours: 'Mån–fre 12–22, lör–sön 10–19',
    products: [
      { name: 'Dagsentré', description: 'En dags klättring med hyrskor.', source: 'InStore', price: kr(190), validDays: 365 },
      { name: 'Introduktionskurs', description: 'Två kvällar där du lär dig klättra och säkra.', source: 'InStore', price: kr(1100), validDays: 365 },
      { name: 'Tiokort', description: 'Tio entréer att använda när du vill.', source: 'InStore', price: kr(1500), validDays: 730 },
    ],
  },
  {
    id: id(9),
    name: 'Nudelbaren Umami',
    description: 'Ramen, dumplings och japanska smårätter i Lund. Buljongen kokas i arton timmar.',
    category: 'restaurant',
    website: null,
    sources: ['InStore', 'Code'],
    merchantCode: 'UMAMI3030',
    logo: 'umami.svg',
    address: { street: 'Bangatan 6', postalCode: '222 21', city: 'Lund' },
    openingHours: 'Mån–lör 11–21, sön stängt',
    products: [
      { name: 'En skål ramen', description: 'Valfri ramen från menyn.', source: 'InStore', price: kr(165), validDays: 180 },
      { name: 'Ramen för två med dumplings', description: 'Två skålar ramen och en portion dumplings att dela.', source: 'InStore', price: kr(420), validDays: 180 },
      { name: 'Hämtmat online', description: 'En kod för beställning i vår app.', source: 'Code', minAmount: kr(100), maxAmount: kr(500), validDays: 180 },
    ],
  },
  {
    id: id(10),
    name: 'Äventyrsrummet Labyrinten',
    description: 'Escape room i Örebro: en timme, ett låst rum och en gåta att lösa tillsammans.',
    category: 'experience',
    website: 'https://labyrinten.example',
    sources: ['Code'],
    merchantCode: 'GATAN42',
    logo: 'labyrinten.svg',
    address: null,
    openingHours: null,
    products: [
      { name: 'Escape room för två', description: 'En timme i valfritt rum för två personer.', source: 'Code', price: kr(690), validDays: 365 },
      { name: 'Escape room för fyra', description: 'En timme i valfritt rum för upp till fyra personer.', source: 'Code', price: kr(1190), validDays: 365 },
    ],
  },
  {
    id: id(11),
    name: 'Glassbaren Hallon & Lakrits',
    description: 'Egen glass och sorbet gjord på svenska bär, i Visby hela sommaren och i Stockholm året om.',
    category: 'cafe',
    website: 'https://hallonlakrits.example',
    sources: ['InStore'],
    merchantCode: 'GLASS2024',
    logo: 'hallonlakrits.svg',
    address: { street: 'Strandgatan 22', postalCode: '621 56', city: 'Visby' },
    openingHours: 'Alla dagar 11–22 (juni–augusti)',
    products: [
      { name: 'Två kulor glass', description: 'Två kulor i strut eller bägare.', source: 'InStore', price: kr(55), validDays: 365 },
      { name: 'Glass för familjen', description: 'Fyra glassar med två kulor var.', source: 'InStore', price: kr(199), validDays: 365 },
    ],
  },
  {
    id: id(12),
    name: 'Designbutiken Form',
    description: 'Svensk form och hantverk i Jönköping: keramik, textil och glas från små verkstäder.',
    category: 'shopping',
    website: 'https://formbutiken.example',
    sources: ['InStore', 'Code'],
    merchantCode: 'FORM8080',
    logo: 'form.svg',
    address: { street: 'Östra Storgatan 40', postalCode: '553 21', city: 'Jönköping' },
    openingHours: 'Mån–fre 10–18, lör 10–16',
    products: [
      { name: 'Presentkort i butiken', description: 'Valfritt belopp att handla för.', source: 'InStore', minAmount: kr(250), maxAmount: kr(2500), validDays: 365 },
      { name: 'Presentkort online', description: 'En kod för webbutiken.', source: 'Code', minAmount: kr(250), maxAmount: kr(2500), validDays: 365 },
    ],
  },
  {
    id: id(13),
    name: 'Stiftelsen Östersjöns Framtid',
    description: 'Vi städar stränder, planterar ålgräs och följer havets hälsa längs Sveriges östkust.',
    category: 'charity',
    website: 'https://ostersjonsframtid.example',
    sources: ['Charity'],
    merchantCode: 'HAV2030',
    logo: 'ostersjon.svg',
    address: null,
    openingHours: null,
    products: [
      { name: 'En strandstädning', description: 'Räcker till säckar och handskar för en städdag.', source: 'Charity', price: kr(100), validDays: 3650 },
      { name: 'Tio kvadratmeter ålgräs', description: 'Planteras av våra dykare under sommaren.', source: 'Charity', price: kr(250), validDays: 3650 },
      { name: 'Valfri gåva', description: 'Ge det belopp du vill.', source: 'Charity', minAmount: kr(50), maxAmount: kr(5000), validDays: 3650 },
    ],
  },
  {
    id: id(14),
    name: 'Föreningen Varma Händer',
    description: 'Ideell förening som ger mat, kläder och en varm plats till människor utan hem i Norrköping.',
    category: 'charity',
    website: 'https://varmahander.example',
    sources: ['Charity'],
    merchantCode: 'VARM1111',
    logo: 'varmahander.svg',
    address: null,
    openingHours: null,
    products: [
      { name: 'En varm måltid', description: 'En lagad måltid i vårt kök.', source: 'Charity', price: kr(75), validDays: 3650 },
      { name: 'Vinterpaket', description: 'Mössa, vantar och raggsockor.', source: 'Charity', price: kr(300), validDays: 3650 },
      { name: 'Valfri gåva', description: 'Ge det belopp du vill.', source: 'Charity', minAmount: kr(50), maxAmount: kr(5000), validDays: 3650 },
    ],
  },
];

/**
 * Gives each demo merchant that exists its owner (demoOwnerNumber), so anyone can walk the
 * merchant's side on one machine; does nothing once anybody works for any merchant.
 */
export async function seedDemoOwners(db: Db): Promise<void> {
  const ids = demoMerchants.map((m) => m.id);
  const numbers = demoMerchants.map(demoOwnerNumber);
  await sql`
    INSERT INTO merchant_staff (merchant_id, mobile_number, role)
    SELECT m.id, d.number, 'owner'
      FROM unnest(${ids}::uuid[], ${numbers}::text[]) AS d (id, number) JOIN merchant m ON m.id = d.id
     WHERE NOT EXISTS (SELECT 1 FROM merchant_staff)
    ON CONFLICT DO NOTHING`.execute(db);
}

/**
 * Gives the demo merchants that exist their address and opening hours (a database seeded before
 * 026_merchant_address has none); does nothing once any merchant has either.
 */
export async function seedDemoAddresses(db: Db): Promise<void> {
  const placed = demoMerchants.filter((m) => m.address || m.openingHours);
  await sql`
    UPDATE merchant m SET street = d.street, postal_code = d.postal_code, city = d.city, opening_hours = d.opening_hours
      FROM unnest(${placed.map((m) => m.id)}::uuid[], ${placed.map((m) => m.address?.street ?? null)}::text[],
                  ${placed.map((m) => m.address?.postalCode ?? null)}::text[], ${placed.map((m) => m.address?.city ?? null)}::text[],
                  ${placed.map((m) => m.openingHours)}::text[]) AS d (id, street, postal_code, city, opening_hours)
     WHERE m.id = d.id
       AND NOT EXISTS (SELECT 1 FROM merchant o WHERE o.street IS NOT NULL OR o.opening_hours IS NOT NULL)`.execute(db);
}

/** Seeds the demo catalogue when there is no merchant at all; otherwise does nothing. */
export async function seedMerchants(db: Db): Promise<void> {
  const existing = await db.selectFrom('merchant').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  const hashes = await Promise.all(demoMerchants.map((m) => hashMerchantCode(m.merchantCode)));
  await transaction(db, async (tx) => {
    // Another process may have seeded meanwhile: the lock makes the check and the insert one step.
    await sql`LOCK TABLE merchant IN EXCLUSIVE MODE`.execute(tx);
    const again = await tx.selectFrom('merchant').select('id').limit(1).executeTakeFirst();
    if (again) return;
    await tx
      .insertInto('merchant')
      .values(
        demoMerchants.map((m, i) => ({
          id: m.id,
          name: m.name,
          description: m.description,
          logo_url: `/merchants/${m.logo}`,
          category: m.category,
          website: m.website,
          sources: m.sources,
          street: m.address?.street ?? null,
          postal_code: m.address?.postalCode ?? null,
          city: m.address?.city ?? null,
          opening_hours: m.openingHours,
          code_hash: hashes[i]!,
        })),
      )
      .execute();
    await tx
      .insertInto('product')
      .values(
        demoMerchants.flatMap((m) =>
          m.products.map((p, j) => ({
            id: demoProductId(m, j),
            merchant_id: m.id,
            name: p.name,
            description: p.description,
            image_url: null,
            source: p.source,
            price: p.price ?? null,
            min_amount: p.minAmount ?? null,
            max_amount: p.maxAmount ?? null,
            valid_days: p.validDays,
          })),
        ),
      )
      .execute();
  });
}
