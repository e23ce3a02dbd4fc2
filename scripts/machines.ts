/** Every machine in machines/ and a flow's child machines in its folder (machines/compose/autosave.ts), for the scripts that write docs/flows/. */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { discoverMachines, type DiscoveredMachine } from '../charts/chart.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export async function loadMachines(): Promise<DiscoveredMachine[]> {
  const dirs = ['machines', ...readdirSync(join(root, 'machines'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `machines/${d.name}`)];
  const files = dirs.flatMap((dir) => readdirSync(join(root, dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts')).map((f) => `${dir}/${f}`));
  const modules = Object.fromEntries(await Promise.all(files.map(async (f) => [f, await import(pathToFileURL(join(root, f)).href)] as const)));
  return discoverMachines(modules);
}
