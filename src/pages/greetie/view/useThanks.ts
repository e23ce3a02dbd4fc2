import { useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { Failure } from '../../../../contract/errors.ts';
import type { GreetieThanks } from '../../../../contract/greetie.ts';
import { THANKS_SCREENS, type thanksMachine, type ThanksEmoji, type ThanksTag } from '../../../../machines/thanks.ts';
import { screenOf } from '../../../components/flow.ts';
import { inspect } from '../../../inspect.ts';
import { thanks } from './thanks.ts';

type Snapshot = SnapshotFrom<typeof thanksMachine>;

/** What the thank-you shows on the greetie's page. */
export interface ThanksView {
  screen: ThanksTag;
  /** The draft: kept whatever happens to a send. */
  message: string;
  emoji: ThanksEmoji | null;
  /** The thank-you as saved, once sent. */
  thanks: GreetieThanks | null;
  /** Why the last send was refused; the page words it by its code. */
  failure: Failure | null;
}

export interface ThanksCommands {
  write: (message: string) => void;
  pickEmoji: (emoji: ThanksEmoji | null) => void;
  send: () => void;
}

const selectView = (s: Snapshot): ThanksView => ({
  screen: screenOf(s, THANKS_SCREENS),
  message: s.context.message,
  emoji: s.context.emoji,
  thanks: s.context.thanks,
  failure: s.context.error,
});

/** Runs the thank-you (src/pages/greetie/view/thanks.ts) for one greetie while its page is shown. */
export function useThanks(greetieId: string): ThanksView & ThanksCommands {
  const actor = useActorRef(thanks, { input: { greetieId }, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [commands] = useState<ThanksCommands>(() => ({
    write: (message) => actor.send({ type: 'user.write', message }),
    pickEmoji: (emoji) => actor.send({ type: 'user.pickEmoji', emoji }),
    send: () => actor.send({ type: 'user.send' }),
  }));
  return { ...view, ...commands };
}
