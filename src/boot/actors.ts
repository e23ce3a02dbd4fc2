/** XState, the root machine and the toasts', then the next task (see ./react.ts). */
export { createAppActor, loadSession } from '../app/AppActors.tsx';
export { maySignIn } from '../app/storedSession.ts';
export { startInspection } from '../app/inspect.ts';
import { nextTask } from './nextTask.ts';

await nextTask();
