import type { ShotEntry, ShotManifest } from '../../../charts/shots.ts';

/**
 * The pictures of the real pages (`npm run flows:shots`): the manifest says which picture shows a
 * state, and the build gives each picture its URL (an asset of its own, fetched only when the
 * panel shows it: the <img> is lazy).
 */
const manifests = import.meta.glob<{ default: ShotManifest }>('../../../docs/flows/shots/index.json', { eager: true });
const urls = import.meta.glob<string>('../../../docs/flows/shots/*/*.webp', { eager: true, query: '?url', import: 'default' });

const manifest: ShotManifest | undefined = Object.values(manifests)[0]?.default;

export interface StatePicture {
  url: string;
  /** The page it was taken on (path and query). */
  page: string;
  width: number;
  height: number;
}

/** The picture of `machineId`'s state at `path` (below the root), if the command has taken one. */
export function pictureOf(machineId: string, path: string): StatePicture | undefined {
  const entry: ShotEntry | undefined = manifest?.machines[machineId]?.[path];
  if (!entry || !('picture' in entry)) return undefined;
  const url = urls[`../../../docs/flows/shots/${entry.picture}`];
  return url && manifest ? { url, page: entry.page, ...manifest.viewport } : undefined;
}
