import type { SandboxSms } from '../../../contract/sandbox.ts';
import { defineHooks } from '../harness/types.ts';

export const outbox: SandboxSms[] = [
  { to: '+46701234567', body: 'Din Greetie-kod är 654321', sentAt: '2026-11-21T08:01:00.000Z' },
];

export default defineHooks({
  events: {
    'xstate.done.actor.readOutbox': [{ output: outbox }],
    'xstate.error.actor.readOutbox': [{ error: Object.assign(new Error('Internal'), { status: 500 }) }],
  },
});
