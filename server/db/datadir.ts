import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * What lives in DATA_DIR, read in one place: the default folder, where the embedded database's
 * cluster is (inside DATA_DIR, or elsewhere when the `postgres` user cannot reach DATA_DIR: see
 * docs/decisions/005-embedded-postgres-as-root.md), and the cluster's postmaster.pid.
 */

/** `DATA_DIR` when the environment does not set it, relative to the working folder. */
export const DEFAULT_DATA_DIR = 'data';

type Env = Record<string, string | undefined>;

export function dataDirFrom(env: Env, cwd = process.cwd()): string {
  return path.resolve(cwd, env.DATA_DIR && env.DATA_DIR !== '' ? env.DATA_DIR : DEFAULT_DATA_DIR);
}

/** DATA_DIR/pg-location names the cluster's folder when it lives outside DATA_DIR. */
export const LOCATION_FILE = 'pg-location';
/** The file in an outside cluster's home that names the DATA_DIR it belongs to. */
export const OWNER_FILE = 'data-dir';

/** The recorded outside cluster folder of this DATA_DIR, if it has one. */
export function recordedClusterDir(dataDir: string): string | undefined {
  try {
    const recorded = readFileSync(path.join(dataDir, LOCATION_FILE), 'utf8').trim();
    return recorded ? recorded : undefined;
  } catch {
    return undefined;
  }
}

/** Where the embedded cluster of this DATA_DIR is: the recorded outside folder, or DATA_DIR/pg. */
export function clusterDirOf(dataDir: string): string {
  return recordedClusterDir(dataDir) ?? path.join(dataDir, 'pg');
}

export interface Postmaster {
  pid: number;
  port: number | undefined;
}

/** The running (or last) postmaster of a cluster folder, from its postmaster.pid; undefined when there is none. */
export function readPostmaster(clusterDir: string): Postmaster | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lines[0]?.trim() ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const port = Number.parseInt(lines[3]?.trim() ?? '', 10);
  return { pid, port: Number.isInteger(port) && port > 0 ? port : undefined };
}

/**
 * Removes a DATA_DIR and, when its cluster lives outside it, that cluster's home too (tests and
 * benchmarks make throwaway DATA_DIRs and must leave nothing behind). The outside home is removed
 * only when it names this DATA_DIR as its owner, so a stray pg-location cannot point us at
 * anything else. Stop the database first.
 */
export function removeDataDir(dataDir: string): void {
  const recorded = recordedClusterDir(dataDir);
  if (recorded) {
    const home = path.dirname(recorded);
    const ownerFile = path.join(home, OWNER_FILE);
    if (existsSync(ownerFile) && readFileSync(ownerFile, 'utf8').trim() === path.resolve(dataDir)) {
      rmSync(home, { recursive: true, force: true });
    }
  }
  rmSync(dataDir, { recursive: true, force: true });
}
