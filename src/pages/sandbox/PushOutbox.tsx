import { Outbox } from './Outbox.tsx';
import { pushOutbox } from './loaders.ts';

/** The sandbox push outbox, newest first: the notifications that would have reached a phone. */
export function PushOutbox() {
  return <Outbox machine={pushOutbox} kind="push" titled />;
}
