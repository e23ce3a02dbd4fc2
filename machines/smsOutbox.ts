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

/** What the page shows; every state has exactly one of these tags. */
export const SMS_OUTBOX_TAGS = ['loading', 'showing', 'failed'] as const;
export type SmsOutboxTag = (typeof SMS_OUTBOX_TAGS)[number];

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
  description: 'Testmiljöns sms-utkorg: läses direkt, sedan med några sekunders mellanrum och på begäran.',
  context: { messages: [] },
  initial: 'loading',
  states: {
    loading: {
      description: 'Första läsningen pågår.',
      tags: ['loading'],
      invoke: {
        id: 'readOutbox',
        src: 'readOutbox',
        onDone: {
          target: 'showing',
          actions: { type: 'storeMessages', params: ({ event }) => event.output },
          description: 'Meddelandena kom.',
        },
        onError: { target: 'failed', description: 'Utkorgen kunde inte läsas.' },
      },
    },
    showing: {
      description: 'Meddelandena visas (kanske inga).',
      tags: ['showing'],
      initial: 'waiting',
      on: {
        'user.refresh': { target: '.reading', description: 'Personen ber om att läsa nu.' },
      },
      states: {
        waiting: {
          description: 'Tills det är dags att läsa igen.',
          after: {
            pollInterval: { target: 'reading', description: 'Dags att läsa igen.' },
          },
        },
        reading: {
          description: 'Läser igen; meddelandena som visas står kvar tills svaret kommer.',
          invoke: {
            id: 'readOutbox',
            src: 'readOutbox',
            onDone: {
              target: 'waiting',
              actions: { type: 'storeMessages', params: ({ event }) => event.output },
              description: 'Meddelandena kom: de ersätter dem som visas.',
            },
            onError: { target: '#smsOutbox.failed', description: 'Utkorgen kunde inte läsas.' },
          },
        },
      },
    },
    failed: {
      description: 'Senaste läsningen misslyckades: sidan säger det (läsningen fortsätter).',
      tags: ['failed'],
      initial: 'waiting',
      on: {
        'user.refresh': { target: '.reading', description: 'Personen ber om att läsa nu.' },
      },
      states: {
        waiting: {
          description: 'Tills det är dags att försöka igen.',
          after: {
            pollInterval: { target: 'reading', description: 'Dags att försöka igen.' },
          },
        },
        reading: {
          description: 'Försöker igen; felet visas tills svaret kommer.',
          invoke: {
            id: 'readOutbox',
            src: 'readOutbox',
            onDone: {
              target: '#smsOutbox.showing',
              actions: { type: 'storeMessages', params: ({ event }) => event.output },
              description: 'Meddelandena kom.',
            },
            onError: { target: 'waiting', description: 'Fortfarande fel.' },
          },
        },
      },
    },
  },
});
