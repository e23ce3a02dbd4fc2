import { defineHooks } from '../harness/types.ts';

export default defineHooks({ input: { id: 'toast-1' } });
