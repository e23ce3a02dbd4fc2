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

const DURATION = /^P(?:(\d+)W|(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?)$/;

/**
 * An ISO-8601 duration of weeks, days, hours, minutes and seconds (P3D, PT12H, P1DT6H, P2W), as
 * milliseconds; months and years are left out, their length varies. A zero duration is refused.
 */
export function duration<D extends number | undefined = undefined>(options: Common<D>): Setting<number, D> {
  const schema = Type.Integer({ minimum: 1, description: options.description, default: options.default });
  return setting(schema, { shown: options.default === undefined ? undefined : isoDuration(options.default), ...options }, (raw, name) => {
    const m = DURATION.exec(raw.toUpperCase());
    const [w, d, h, min, sec] = (m?.slice(1) ?? []).map((part) => Number(part ?? 0));
    const ms = m && raw.toUpperCase() !== 'P' && !raw.toUpperCase().endsWith('T') ? ((((w! * 7 + d!) * 24 + h!) * 60 + min!) * 60 + sec!) * 1000 : 0;
    return ms > 0 ? ms : new Problem(`${name} must be an ISO-8601 duration such as P3D or PT12H (got "${raw}")`);
  });
}

/** Milliseconds as an ISO-8601 duration, for the README's default column (P3D, PT12H). */
export function isoDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const [d, h, m, sec] = [Math.floor(s / 86_400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60];
  const time = `${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec ? `${sec}S` : ''}`;
  return `P${d ? `${d}D` : ''}${time ? `T${time}` : ''}`;
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
