import { Value } from 'typebox/value';
import type { Static, TSchema } from 'typebox';
import { HttpError, fieldProblem, type FieldProblem } from './errors.ts';

/**
 * Schema checks of input that does not arrive over HTTP (the admin command), against the same
 * contract schemas the API validates with, reported the way the API reports them: TypeBox's
 * checker gives issues of the same shape as Fastify's Ajv, and errors.ts's `fieldProblem` turns
 * both into `{ field, problem }`.
 */

/**
 * The first problem of one value against one schema. A union reports each variant it tried and
 * then `anyOf`; the person only needs "not an allowed value".
 */
function firstIssue(schema: TSchema, value: unknown): { instancePath: string; keyword: string } | undefined {
  const errors = Value.Errors(schema, value).filter((e) => e.keyword !== 'boolean');
  return errors.find((e) => e.keyword === 'anyOf') ?? errors[0];
}

function firstProblem(schema: TSchema, value: unknown, prefix: string): FieldProblem[] {
  const issue = firstIssue(schema, value);
  return issue ? [fieldProblem({ instancePath: issue.instancePath, keyword: issue.keyword }, prefix)] : [];
}

/**
 * Schema problems of a value: one per field (each property is checked on its own, so one bad
 * field never hides another), then missing and unknown fields, then whole-object rules.
 */
export function schemaProblems(schema: TSchema, value: unknown, prefix = 'body'): FieldProblem[] {
  const s = schema as TSchema & { type?: string; properties?: Record<string, TSchema>; required?: string[] };
  if (s.type !== 'object' || !s.properties || typeof value !== 'object' || value === null || Array.isArray(value)) {
    return firstProblem(schema, value, prefix);
  }
  const record = value as Record<string, unknown>;
  const out: FieldProblem[] = [];
  for (const [key, propSchema] of Object.entries(s.properties)) {
    if (record[key] === undefined) {
      if (s.required?.includes(key)) out.push({ field: `${prefix}.${key}`, problem: 'required' });
      continue;
    }
    out.push(...firstProblem(propSchema, record[key], `${prefix}.${key}`));
  }
  for (const key of Object.keys(record)) {
    if (!(key in s.properties)) out.push({ field: `${prefix}.${key}`, problem: 'additionalProperties' });
  }
  // Whole-object rules (minProperties).
  return out.length ? out : firstProblem(schema, value, prefix);
}

/** The value, typed by its schema, or a 400 VALIDATION_FAILED naming every bad field. */
export function validate<S extends TSchema>(schema: S, value: unknown, prefix = 'body'): Static<S> {
  const problems = schemaProblems(schema, value, prefix);
  if (problems.length) throw new HttpError(400, 'VALIDATION_FAILED', {}, problems);
  return value as Static<S>;
}
