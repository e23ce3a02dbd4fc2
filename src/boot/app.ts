/** The app's frame (providers, layouts, their styles) and the route table, then the next task (see ./react.ts). */
export { App } from '../app/App.tsx';
export { routes } from '../app/routes.tsx';
import { nextTask } from './nextTask.ts';

await nextTask();
