import { parse as parseIsoDuration, pattern as isoDurationPattern, toSeconds as isoDurationSeconds, type Duration } from 'iso8601-duration';
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';

/**
 * The settings the server reads from the environment, declared once (decision 026): each with
 * its description, the default the README shows, a TypeBox schema of the parsed value and its
 * parse, which gives the value or the one line people see when it is wrong. server/config.ts
 * derives the Config from them and adds the rules that tie several settings together (SANDBOX=off
 * needs…, Swish's files, the VAPID pair). tests/server/foundation/settings.test.ts keeps the
 * README's table in step with this list.
 *
 * A new setting is one entry here (a builder below, or `custom`), one line reading it in
 * server/config.ts and one row in the README.
 */

/** A wrong value: the one line that says so, starting with the setting's name. */
export class Problem {
  constructor(readonly line: string) {}
}

export interface Setting<T, D extends T | undefined = T | undefined> {
  readonly description: string;
  /** The value when the variable is unset or empty (undefined: none, or it depends on others). */
  readonly default: D;
  /** What the README's default column says. */
  readonly shown: string;
  /** The parsed value's JSON schema, with the description and default. */
  readonly schema: TSchema;
  /** Leading and trailing blanks are dropped before the emptiness check and the parse. */
  readonly trim: boolean;
  readonly parse: (raw: string, name: string) => T | Problem;
}

interface Common<D> {
  description: string;
  default?: D;
  /** The README's default when `default` does not say it (a default that depends on others). */
  shown?: string;
  trim?: boolean;
}

function setting<T, D extends T | undefined>(
  schema: TSchema,
  options: Common<D>,
  parse: (raw: string, name: string) => T | Problem,
): Setting<T, D> {
  return {
    description: options.description,
    default: options.default as D,
    shown: options.shown ?? (options.default === undefined ? '—' : String(options.default)),
    schema,
    trim: options.trim ?? false,
    parse,
  };
}

/** A whole number within bounds: "NAME must be a whole number from 1 to 200 (got "x")". */
export function whole<D extends number | undefined = undefined>(options: Common<D> & { min: number; max: number }): Setting<number, D> {
  const schema = Type.Integer({ minimum: options.min, maximum: options.max, description: options.description, default: options.default });
  return setting(schema, options, (raw, name) => {
    const n = Number(raw);
    return Value.Check(schema, n) ? n : new Problem(`${name} must be a whole number from ${options.min} to ${options.max} (got "${raw}")`);
  });
}

const ON = ['on', 'true', '1', 'yes'];
const OFF = ['off', 'false', '0', 'no'];

/** on/true/1/yes or off/false/0/no, in any case: "NAME must be "on" or "off" (got "x")". */
export function flag<D extends boolean | undefined = undefined>(options: Common<D>): Setting<boolean, D> {
  const schema = Type.Boolean({ description: options.description, default: options.default });
  return setting(schema, { shown: options.default === undefined ? undefined : options.default ? 'on' : 'off', ...options }, (raw, name) => {
    const v = raw.toLowerCase();
    if (ON.includes(v)) return true;
    if (OFF.includes(v)) return false;
    return new Problem(`${name} must be "on" or "off" (got "${raw}")`);
  });
}

/** One of a few words, as written: "NAME must be "a" or "b" (got "x")" or "NAME must be one of a, b, c (got "x")". */
export function oneOf<const V extends string, D extends V | undefined = undefined>(values: readonly V[], options: Common<D>): Setting<V, D> {
  const schema = Type.Union(
    values.map((v) => Type.Literal(v)),
    { description: options.description, default: options.default },
  );
  const expected = values.length === 2 ? `"${values[0]}" or "${values[1]}"` : `one of ${values.join(', ')}`;
  return setting(schema, options, (raw, name) =>
    Value.Check(schema, raw) ? (raw as V) : new Problem(`${name} must be ${expected} (got "${raw}")`),
  );
}

/** An http:// or https:// URL, trailing slashes dropped: "NAME must be an http:// or https:// URL". */
export function httpUrl<D extends string | undefined = undefined>(options: Common<D>): Setting<string, D> {
  const schema = Type.String({ format: 'uri', description: options.description, default: options.default });
  return setting(schema, options, (raw, name) =>
    isHttpUrl(raw) ? raw.replace(/\/+$/, '') : new Problem(`${name} must be an http:// or https:// URL`),
  );
}

/** An ISO-8601 duration setting: as written, and its parts (iso8601-duration; decision 089). */
export interface IsoDuration {
  iso: string;
  parts: Required<Duration>;
}

const WHOLE_ISO_DURATION = new RegExp(`^${isoDurationPattern.source}$`);
/** Calendar units are compared as they fall from this day (a month from it is 31 days). */
const DURATION_REFERENCE = new Date('2026-01-01T00:00:00Z');

/** One ISO-8601 duration (PnYnMnWnDTnHnMnS), longer than zero; undefined when it is not one. */
export function isoDurationOf(value: string): IsoDuration | undefined {
  const iso = value.trim().toUpperCase();
  if (!WHOLE_ISO_DURATION.test(iso)) return undefined;
  let d: Duration;
  try {
    d = parseIsoDuration(iso);
  } catch {
    return undefined;
  }
  const parts = { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0, ...d };
  if (isoDurationSeconds(parts, DURATION_REFERENCE) <= 0) return undefined;
  return { iso, parts };
}

/** The seconds a duration lasts from the reference day (to order and compare them). */
export function isoDurationLength(d: IsoDuration): number {
  return isoDurationSeconds(d.parts, DURATION_REFERENCE);
}

const isOff = (raw: string) => raw.trim().toLowerCase() === 'off';

/** One ISO-8601 duration longer than zero, or "off" (null). `default` is written as ISO-8601. */
export function durationOrOff(options: Omit<Common<string>, 'default'> & { default: string }): Setting<IsoDuration | null, IsoDuration | null> {
  const schema = Type.String({ description: options.description, default: options.default });
  return setting(schema, { ...options, default: isoDurationOf(options.default) ?? null, shown: options.default, trim: true }, (raw, name) =>
    isOff(raw)
      ? null
      : (isoDurationOf(raw) ?? new Problem(`${name} must be an ISO-8601 duration longer than zero (e.g. "${options.default}"), or "off" (got "${raw}")`)),
  );
}

/** ISO-8601 durations longer than zero, shortest first, separated by commas, or "off" (none). */
export function durationList(options: Omit<Common<string>, 'default'> & { default: string }): Setting<IsoDuration[], IsoDuration[]> {
  const schema = Type.String({ description: options.description, default: options.default });
  const parse = (raw: string): IsoDuration[] | undefined => {
    const parsed = raw.split(',').map((v) => isoDurationOf(v));
    if (parsed.some((d) => d === undefined)) return undefined;
    const lengths = (parsed as IsoDuration[]).map(isoDurationLength);
    return lengths.every((n, i) => i === 0 || n > lengths[i - 1]!) ? (parsed as IsoDuration[]) : undefined;
  };
  return setting(schema, { ...options, default: parse(options.default) ?? [], shown: options.default, trim: true }, (raw, name) =>
    isOff(raw)
      ? []
      : (parse(raw) ??
        new Problem(`${name} must be ISO-8601 durations longer than zero, shortest first, separated by commas (e.g. "${options.default}"), or "off" (got "${raw}")`)),
  );
}

/** Any text, as written (after `trim` when asked). */
export function text<D extends string | undefined = undefined>(options: Common<D>): Setting<string, D> {
  const schema = Type.String({ description: options.description, default: options.default });
  return setting(schema, options, (raw) => raw);
}

/** Text that must match `pattern`, with its own one-line problem. */
export function matching<D extends string | undefined = undefined>(
  options: Common<D> & { pattern: RegExp; problem: (raw: string) => string },
): Setting<string, D> {
  const schema = Type.String({ pattern: options.pattern.source, description: options.description, default: options.default });
  return setting(schema, options, (raw) => (options.pattern.test(raw) ? raw : new Problem(options.problem(raw))));
}

/** Anything else: its own parse and schema. */
export function custom<T, D extends T | undefined = undefined>(
  schema: TSchema,
  options: Common<D>,
  parse: (raw: string, name: string) => T | Problem,
): Setting<T, D> {
  return setting(schema, { ...options }, parse);
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySetting = Setting<any, any>;

/** A setting's value when read: its default's type when it has one, else possibly undefined. */
export type ValueOf<S> = S extends Setting<infer T, infer D> ? (D extends undefined ? T | undefined : T) : never;

export type Env = Record<string, string | undefined>;

/**
 * Reads declared settings from `env`. A wrong value adds its one line to `errors` and reads as
 * the default, so every problem is reported in one go; the lines come in the order the settings
 * are read, and a setting that is never read (Swish's, while payments are in the sandbox) is
 * never checked.
 */
export function settingsReader<S extends Record<string, AnySetting>>(declared: S, env: Env, errors: string[]) {
  return function read<K extends keyof S & string>(name: K): ValueOf<S[K]> {
    const s = declared[name]!;
    const given = env[name];
    const raw = given === undefined ? '' : s.trim ? given.trim() : given;
    if (raw === '') return s.default as ValueOf<S[K]>;
    const parsed: unknown = s.parse(raw, name);
    if (parsed instanceof Problem) {
      errors.push(parsed.line);
      return s.default as ValueOf<S[K]>;
    }
    return parsed as ValueOf<S[K]>;
  };
}

/** The settings as one JSON schema (an object of every variable), for documentation and tests. */
export function settingsSchema(declared: Record<string, AnySetting>): TSchema {
  return Type.Object(Object.fromEntries(Object.entries(declared).map(([name, s]) => [name, Type.Optional(s.schema)])));
}
