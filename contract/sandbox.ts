import { Type, type Static } from 'typebox';
import { DateTime } from './common.ts';

/** An SMS the sandbox outbox kept instead of sending (GET /api/sandbox/sms). */
export const SandboxSms = Type.Object({
  to: Type.String({ description: 'E.164' }),
  body: Type.String(),
  sentAt: DateTime,
}, { $id: 'SandboxSms', title: 'SandboxSms' });
export type SandboxSms = Static<typeof SandboxSms>;

/** GET /api/sandbox: the sandbox is on (when it is off, the path is 404). */
export const SandboxStatus = Type.Object({ enabled: Type.Literal(true) }, { $id: 'SandboxStatus', title: 'SandboxStatus' });
export type SandboxStatus = Static<typeof SandboxStatus>;

export const SandboxSmsQuery = Type.Object({
  to: Type.Optional(Type.String({ maxLength: 40, description: 'Only messages to this number (any Swedish form)' })),
});
export type SandboxSmsQuery = Static<typeof SandboxSmsQuery>;
