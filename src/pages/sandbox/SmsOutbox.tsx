import { Outbox } from './Outbox.tsx';
import { smsOutbox } from './loaders.ts';

/**
 * The sandbox SMS outbox, newest first: where sign-in codes land when no SMS is really sent. The
 * reading (at once, every few seconds, on request) is the smsOutbox machine's.
 */
export function SmsOutbox() {
  return <Outbox machine={smsOutbox} kind="sms" />;
}
