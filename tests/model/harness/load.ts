import { discoverMachines, type DiscoveredMachine } from '../../../charts/chart.ts';
import { buildModel, type MachineModel } from './model.ts';
import type { MachineHooks } from './types.ts';

/**
 * Builds the model of every machine from the modules of machines/*.ts and the hooks of
 * tests/model/hooks/*.ts (file name = machine id), however they were loaded (Vite glob or fs).
 */
export function loadModels(machineModules: Record<string, unknown>, hookModules: Record<string, unknown>): MachineModel[] {
  const hooksById = new Map<string, MachineHooks>();
  for (const [file, mod] of Object.entries(hookModules)) {
    const id = /([^/\\]+)\.tsx?$/.exec(file)?.[1];
    const hooks = (mod as { default?: MachineHooks }).default;
    if (id && hooks) hooksById.set(id, hooks);
  }
  const found: DiscoveredMachine[] = discoverMachines(
    Object.fromEntries(Object.entries(machineModules).map(([file, mod]) => [file.replace(/^.*?(machines\/)/, '$1'), mod])),
  );
  return found.map((f) => buildModel(f, hooksById.get(f.id)));
}
