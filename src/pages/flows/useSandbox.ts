import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

/** Whether the sandbox is on: GET /api/sandbox answers 200 (404 when SANDBOX=off). */
export function useSandboxOn(): 'checking' | 'on' | 'off' {
  const [state, setState] = useState<'checking' | 'on' | 'off'>('checking');
  useEffect(() => {
    const controller = new AbortController();
    api.get('/api/sandbox', { signal: controller.signal }).then(
      () => setState('on'),
      (err: unknown) => {
        if (!(err instanceof DOMException && err.name === 'AbortError')) setState('off');
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
