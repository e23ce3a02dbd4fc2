import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The README promises Node 20.19+. Every package npm installs for us (dependencies, dev tools and
 * their dependencies, as package-lock.json records them) must say it runs there; one that declares
 * a newer Node (npm's EBADENGINE warning) is pinned to the last line made for Node 20.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const promised = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

describe('the Node version the README promises', () => {
  it('is the one package.json declares', () => {
    expect(promised).toBe('>=20.19');
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('Node 20.19+');
  });

  it('satisfies the engines of every locked package', () => {
    const lowest = semver.minVersion(promised)!.version;
    const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => !Array.isArray(p.engines) && typeof p.engines?.node === 'string' && !semver.satisfies(lowest, p.engines.node))
      .map(([name, p]) => `${name.replace(/^.*node_modules\//, '')}@${p.version} needs node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
