import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createTestApp, type TestApp } from '../helpers.ts';

/**
 * The served OpenAPI document is one a client generator can use as it is: Redocly's
 * `recommended` rules find nothing in it, not even a warning (docs/decisions/063-openapi-lint.md).
 */
describe('the OpenAPI document at /api/openapi.json', () => {
  let t: TestApp;
  let doc: string;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).body;
  });
  afterAll(async () => {
    await t.close();
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: doc, absoluteRef: 'openapi.json', config });
    const found = problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(found).toEqual([]);
  });

  it('names every operation, says who may call it, and answers its errors with the one ErrorBody', () => {
    const parsed = JSON.parse(doc) as {
      paths: Record<string, Record<string, { operationId?: string; security?: unknown[]; 'x-access'?: { visitor: number }; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const ops = Object.entries(parsed.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, op })));
    expect(ops.length).toBeGreaterThan(10);
    for (const { key, op } of ops) {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z]+$/);
      // Protected (a visitor gets 401) ⇔ the bearer scheme; everything else says `security: []`.
      expect(op.security, key).toEqual(op['x-access']?.visitor === 401 ? [{ bearer: [] }] : []);
      for (const [status, answer] of Object.entries(op.responses)) {
        if (Number(status) >= 400 && Number(status) < 500) {
          expect(JSON.stringify(answer), `${key} ${status}`).toContain('"$ref":"#/components/schemas/ErrorBody"');
        }
      }
    }
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    expect(Object.keys(parsed.components.schemas)).toContain('ErrorBody');
  });
});
