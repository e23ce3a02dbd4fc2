/** React Router, then the next task (see ./react.ts). */
export { createBrowserRouter } from 'react-router-dom';
import { nextTask } from './nextTask.ts';

await nextTask();
