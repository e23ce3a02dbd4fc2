import { assign, fromPromise, setup } from 'xstate';
import type { SandboxSms } from '../contract/sandbox.ts';

/**
 * The sandbox SMS outbox on /sandbox: where sign-in codes land when no SMS is really sent.
 *
 * Read once when the page opens, then again every `pollInterval` (a code arrives within
 * seconds) and whenever the person asks. While it is read again, what was shown stays (the
 * messages, or the failure); the answer replaces it. Reading goes on after a failure, so the
 * outbox comes back by itself when the server does.
 *
 * The page reads it through tags (`loading`, `showing`, `failed`). The server call is the named
 * actor `readOutbox`, given by the page with `.provide()`.
 */

export interface SmsOutboxContext {
  /** The messages of the last successful read, newest first. */
  messages: SandboxSms[];
}

export type SmsOutboxEvent = { type: 'user.refresh' };

export type SmsOutboxTag = 'loading' | 'showing' | 'failed';

/** How often the outbox is read again while the page is open. */
export const OUTBOX_POLL_MS = 5000;

export const smsOutboxMachine = setup({
  types: {
    context: {} as SmsOutboxContext,
    events: {} as SmsOutboxEvent,
    tags: {} as SmsOutboxTag,
  },
  actors: {
    readOutbox: fromPromise<SandboxSms[]>(async () => {
      throw new Error('The "readOutbox" actor is given by the page with smsOutboxMachine.provide().');
    }),
  },
  actions: {
    storeMessages: assign((_, messages: SandboxSms[]) => ({ messages })),
  },
  delays: {
    pollInterval: OUTBOX_POLL_MS,
  },
}).createMachine({
  id: 'smsOutbox',
  description: 'The sandbox SMS outbox: read at once, then every few seconds and on request.',
  context: { messages: [] },
  initial: 'loading',
  states: {
    loading: {
      description: 'The first read runs.',
      tags: ['loading'],
      invoke: {
        id: 'readOutbox',
        src: 'readOutbox',
        onDone: {
          target: 'showing',
          actions: { type: 'storeMessages', params: ({ event }) => event.output },
          description: 'The messages arrived.',
        },
        onError: { target: 'failed', description: 'The outbox could not be read.' },
      },
    },
    showing: {
      description: 'The messages are shown (maybe none).',
      tags: ['showing'],
      initial: 'waiting',
      on: {
        'user.refresh': { target: '.reading', description: 'The person asks to read it now.' },
      },
      states: {
        waiting: {
          description: 'Until it is time to read again.',
          after: {
            pollInterval: { target: 'reading', description: 'Time to read again.' },
          },
        },
        reading: {
          description: 'Reading again; the messages shown stay until the answer.',
          invoke: {
            id: 'readOutbox',
            src: 'readOutbox',
            onDone: {
              target: 'waiting',
              actions: { type: 'storeMessages', params: ({ event }) => event.output },
              description: 'The messages arrived: they replace those shown.',
            },
            onError: { target: '#smsOutbox.failed', description: 'The outbox could not be read.' },
          },
        },
      },
    },
    failed: {
      description: 'The last read failed: the page says so (reading goes on).',
      tags: ['failed'],
      initial: 'waiting',
      on: {
        'user.refresh': { target: '.reading', description: 'The person asks to read it now.' },
      },
      states: {
        waiting: {
          description: 'Until it is time to try again.',
          after: {
            pollInterval: { target: 'reading', description: 'Time to try again.' },
          },
        },
        reading: {
          description: 'Trying again; the failure stays shown until the answer.',
          invoke: {
            id: 'readOutbox',
            src: 'readOutbox',
            onDone: {
              target: '#smsOutbox.showing',
              actions: { type: 'storeMessages', params: ({ event }) => event.output },
              description: 'The messages arrived.',
            },
            onError: { target: 'waiting', description: 'Still failing.' },
          },
        },
      },
    },
  },
});
