import { fillPlaceholders, type Lang, type Message } from '../i18n/index.ts';

/** What the admin command says, in Swedish (default) and English (LANG=en…, or --lang en). */
export const cliMessages = {
  USAGE: {
    sv: `Användning: npm run admin -- <kommando> [flaggor]

Handlare:
  merchant list
  merchant add --name <namn> --category <kategori> --sources <InStore,Charity,Code>
               --logo-url </merchants/x.svg> [--description <text>] [--website <https://…>]
               [--code <kod>]            (utan --code läses koden från stdin)
  merchant update <id> [--name …] [--description …] [--logo-url …] [--category …]
               [--website <url eller "">] [--sources …] [--active true|false]
               [--street <gata> --postal-code <NNN NN> --city <ort>] (alla tre "" tar bort adressen)
               [--opening-hours <text eller "">]
  merchant deactivate <id>
  merchant set-code <id> [kod]           (utan kod läses koden från stdin)

Handlarens folk (handlarportalen; numret loggar in som vanligt, även om det aldrig gjort det förut):
  merchant staff add --merchant <id> --number <mobilnummer> --role owner|staff
  merchant staff remove --merchant <id> --number <mobilnummer>
  merchant staff list --merchant <id>

Produkter (belopp i kronor, t.ex. 149 eller 149,50):
  product add --merchant <id> --name <namn> --source <InStore|Charity|Code>
              (--price <kr> | --min <kr> --max <kr>) --valid-days <dagar>
              [--description <text>] [--image-url <url>]
  product update <id> [--name …] [--description …] [--image-url <url eller "">] [--source …]
              [--price <kr> | --min <kr> --max <kr>] [--valid-days …]
  product remove <id>

Koder (för produkter med source Code; en kod per rad, koderna skrivs aldrig ut):
  codes load --product <id> [--file <koder.txt>]   (utan --file läses koderna från stdin)
  codes count --product <id>

Kategorier: {categories}
Databas: DATABASE_URL, annars den inbyggda databasen under DATA_DIR (standard ./data).
Slutkoder: 0 klart, 2 felaktig inmatning, 3 finns inte, 4 konflikt, 5 databasen nås inte, 1 annat fel.`,
    en: `Usage: npm run admin -- <command> [options]

Merchants:
  merchant list
  merchant add --name <name> --category <category> --sources <InStore,Charity,Code>
               --logo-url </merchants/x.svg> [--description <text>] [--website <https://…>]
               [--code <code>]           (without --code the code is read from stdin)
  merchant update <id> [--name …] [--description …] [--logo-url …] [--category …]
               [--website <url or "">] [--sources …] [--active true|false]
               [--street <street> --postal-code <NNN NN> --city <city>] (all three "" remove the address)
               [--opening-hours <text or "">]
  merchant deactivate <id>
  merchant set-code <id> [code]          (without a code it is read from stdin)

A merchant's people (the merchant portal; the number signs in as usual, even one that never has):
  merchant staff add --merchant <id> --number <mobile number> --role owner|staff
  merchant staff remove --merchant <id> --number <mobile number>
  merchant staff list --merchant <id>

Products (amounts in kronor, e.g. 149 or 149.50):
  product add --merchant <id> --name <name> --source <InStore|Charity|Code>
              (--price <kr> | --min <kr> --max <kr>) --valid-days <days>
              [--description <text>] [--image-url <url>]
  product update <id> [--name …] [--description …] [--image-url <url or "">] [--source …]
              [--price <kr> | --min <kr> --max <kr>] [--valid-days …]
  product remove <id>

Codes (for products with source Code; one code a line, never printed):
  codes load --product <id> [--file <codes.txt>]   (without --file the codes are read from stdin)
  codes count --product <id>

Categories: {categories}
Database: DATABASE_URL, otherwise the embedded database under DATA_DIR (default ./data).
Exit codes: 0 done, 2 bad input, 3 not found, 4 conflict, 5 database unreachable, 1 other error.`,
  },
  ERROR_PREFIX: { sv: 'Fel', en: 'Error' },
  UNKNOWN_COMMAND: { sv: 'Okänt kommando "{command}".', en: 'Unknown command "{command}".' },
  BAD_OPTIONS: { sv: 'Flaggorna kunde inte tolkas: {reason}', en: 'The options could not be read: {reason}' },
  MISSING_ID: { sv: 'Ange id för {what}.', en: 'Give the id of the {what}.' },
  MISSING_CODE: {
    sv: 'Ange koden som argument eller skicka den på stdin.',
    en: 'Give the code as an argument or send it on stdin.',
  },
  BAD_AMOUNT: {
    sv: '{field}: "{value}" är inget belopp i kronor (t.ex. 149 eller 149,50).',
    en: '{field}: "{value}" is not an amount in kronor (e.g. 149 or 149.50).',
  },
  BAD_NUMBER: { sv: '{field}: "{value}" är inget heltal.', en: '{field}: "{value}" is not a whole number.' },
  BAD_BOOLEAN: { sv: '{field}: skriv true eller false.', en: '{field}: write true or false.' },
  UPDATED: { sv: 'updated', en: 'updated' },
  DEACTIVATED: { sv: 'Handlaren är inaktiverad: {name} ({id})', en: 'The merchant is deactivated: {name} ({id})' },
  REMOVED: { sv: 'Produkten är borttagen ur katalogen: {name} ({id})', en: 'The product is removed from the catalogue: {name} ({id})' },
  MISSING_PRODUCT: { sv: 'Ange produkten med --product <id>.', en: 'Give the product with --product <id>.' },
  MISSING_CODES: {
    sv: 'Ange en fil med --file, eller skicka koderna på stdin (en kod per rad).',
    en: 'Give a file with --file, or send the codes on stdin (one code a line).',
  },
  CODES_FILE_UNREADABLE: { sv: 'Filen {file} gick inte att läsa ({reason}).', en: 'The file {file} could not be read ({reason}).' },
  CODES_LOADED: {
    sv: '{added} nya koder inlagda, {duplicates} fanns redan. Lediga koder nu: {free}.',
    en: '{added} new codes loaded, {duplicates} were there already. Free codes now: {free}.',
  },
  CODES_COUNT: { sv: 'Lediga koder: {free}.', en: 'Free codes: {free}.' },
  NO_MERCHANTS: { sv: 'Inga handlare ännu.', en: 'No merchants yet.' },
  MISSING_MERCHANT: { sv: 'Ange handlaren med --merchant <id>.', en: 'Give the merchant with --merchant <id>.' },
  MISSING_NUMBER: { sv: 'Ange mobilnumret med --number <mobilnummer>.', en: 'Give the mobile number with --number <mobile number>.' },
  MISSING_ROLE: { sv: 'Ange rollen med --role owner eller --role staff.', en: 'Give the role with --role owner or --role staff.' },
  STAFF_ADDED: { sv: '{number} är kopplat till handlaren som {role}.', en: '{number} is linked to the merchant as {role}.' },
  STAFF_REMOVED: { sv: 'Numret är inte längre kopplat till handlaren.', en: 'The number is no longer linked to the merchant.' },
  NO_STAFF: { sv: 'Ingen är kopplad till handlaren ännu.', en: 'Nobody is linked to the merchant yet.' },
  STAFF_SIGNED_IN: { sv: 'har loggat in', en: 'has signed in' },
  STAFF_NOT_SIGNED_IN: { sv: 'har inte loggat in ännu', en: 'has not signed in yet' },
  DB_CONFIG: { sv: 'DATABASE_URL måste vara en postgres://-adress.', en: 'DATABASE_URL must be a postgres:// URL.' },
  DB_UNREACHABLE: {
    sv: 'Databasen gick inte att nå: {reason}',
    en: 'The database could not be reached: {reason}',
  },
  DB_NOT_MIGRATED: {
    sv: 'Databasen saknar handlartabellerna. Starta servern en gång (npm start) så körs migreringarna.',
    en: 'The database has no merchant tables. Start the server once (npm start) to run the migrations.',
  },
  DATA_DIR_BUSY: {
    sv: 'DATA_DIR {dataDir} används av en annan Greetie-process (pid {pid}) och dess databas gick inte att nå. Stoppa den, eller ange DATABASE_URL.',
    en: 'DATA_DIR {dataDir} is used by another Greetie process (pid {pid}) and its database could not be reached. Stop it, or set DATABASE_URL.',
  },
} satisfies Record<string, Message>;

export type CliMessageCode = keyof typeof cliMessages;

/** Problems as the API names them (validation keywords), said for a person. */
const problemText: Record<string, Message> = {
  required: { sv: 'saknas', en: 'is missing' },
  format: { sv: 'har fel format', en: 'has the wrong format' },
  pattern: { sv: 'har fel format', en: 'has the wrong format' },
  minLength: { sv: 'är för kort', en: 'is too short' },
  maxLength: { sv: 'är för lång', en: 'is too long' },
  minimum: { sv: 'är för litet', en: 'is too small' },
  maximum: { sv: 'är för stort', en: 'is too large' },
  type: { sv: 'har fel typ', en: 'has the wrong type' },
  anyOf: { sv: 'är inte ett tillåtet värde', en: 'is not an allowed value' },
  const: { sv: 'är inte ett tillåtet värde', en: 'is not an allowed value' },
  enum: { sv: 'är inte ett tillåtet värde', en: 'is not an allowed value' },
  additionalProperties: { sv: 'är inget känt fält', en: 'is not a known field' },
  uniqueItems: { sv: 'innehåller dubbletter', en: 'has duplicates' },
  minItems: { sv: 'behöver minst ett värde', en: 'needs at least one value' },
  maxItems: { sv: 'har för många värden', en: 'has too many values' },
  minProperties: { sv: 'ange minst en ändring', en: 'give at least one change' },
};

export function problemMessage(problem: string, lang: Lang): string {
  return (problemText[problem] ?? { sv: 'är ogiltigt', en: 'is not valid' })[lang];
}

export function cliText(code: CliMessageCode, lang: Lang, params: Record<string, string | number> = {}): string {
  return fillPlaceholders(cliMessages[code][lang], params);
}
