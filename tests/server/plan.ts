import type pg from 'pg';
import type { Compilable } from 'kysely';

/**
 * PostgreSQL's own plan for a query, read back with EXPLAIN so an index test can say which index
 * the planner chose and that no table is read by a sequential scan.
 */

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  /** With ANALYZE only (`analyzedPlanNodes`). */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
  return out;
}

/** Every node of the query's plan, parents before children. A client keeps its session's settings. */
export async function planNodes(on: pg.Pool | pg.PoolClient, query: Compilable, analyze = false): Promise<PlanNode[]> {
  const compiled = query.compile();
  const { rows } = await on.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${compiled.sql}`,
    compiled.parameters as unknown[],
  );
  return walk(rows[0]!['QUERY PLAN'][0].Plan);
}

/** The same, run (EXPLAIN ANALYZE): each node also says how many rows it gave and dropped. */
export function analyzedPlanNodes(on: pg.Pool | pg.PoolClient, query: Compilable): Promise<PlanNode[]> {
  return planNodes(on, query, true);
}
