/** i18next, react-i18next and the frame's Swedish strings, then the next task (see ./react.ts). */
export { createI18n, languageReady } from '../i18n.ts';
import { nextTask } from './nextTask.ts';

await nextTask();
