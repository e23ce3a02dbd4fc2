import { createLoader } from '../../machines/loader.ts';
import { isSandboxOn } from '../api/sandbox.ts';
import { useLoader } from './useLoader.ts';
import { fromCall } from './flow.ts';

/** "Is the sandbox on?" as a loader: GET /api/sandbox (200: on; 404 when SANDBOX=off). */
export const sandboxCheckLoader = createLoader<void, boolean>().provide({
  actors: { load: fromCall<boolean, { params: void }>(({ signal }) => isSandboxOn(signal)) },
});

/** Whether the sandbox is on, for the pages that exist only then (/sandbox, /flows). */
export function useSandboxOn(): 'checking' | 'on' | 'off' {
  const { status, data } = useLoader(sandboxCheckLoader, undefined);
  if (status === 'loading') return 'checking';
  return status === 'loaded' && data ? 'on' : 'off';
}
