/**
 * The app's start, in tasks (decision 156). Each module in src/boot/ re-exports one heavy part of
 * the first load and then waits for the next task. The build puts the whole first load in one file
 * (vite.config.ts, decision 011) and writes its modules out in the order main.tsx imports them, each
 * module's top-level `await` where the module ends: so the browser evaluates react and react-dom,
 * then yields, then the router, and so on, instead of everything in one long task (Lighthouse counts
 * every task over 50 ms, and its 4× slower phone makes 15 ms of this machine's work 60).
 * (The dev server serves modules one by one, where a sibling import does not wait for an `await`:
 * there the parts may run in one task, which changes nothing but the timing.)
 */
export { StrictMode, startTransition } from 'react';
export { createRoot } from 'react-dom/client';
import { nextTask } from './nextTask.ts';

await nextTask();
