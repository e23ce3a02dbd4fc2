import { useEffect, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { Payment } from '../../../../contract/payment.ts';
import { paymentMachine, type PaymentContext, type PaymentDevice, type PaymentEvent, type PaymentTag } from '../../../../machines/payment.ts';
import { getPayment, startPayment } from '../../../api/payment.ts';
import { inspect } from '../../../inspect.ts';

/** The payment machine with its server calls (src/api/payment.ts). */
export const paymentWithServer = paymentMachine.provide({
  actors: {
    startPayment: fromPromise<Payment, { greetieId: string; payerAlias: string | null }>(({ input, signal }) =>
      startPayment(input.greetieId, input.payerAlias, signal),
    ),
    readPayment: fromPromise<Payment, { greetieId: string }>(({ input, signal }) => getPayment(input.greetieId, signal)),
  },
});

type PaymentSnapshot = SnapshotFrom<typeof paymentMachine>;

/** What the page shows, from the machine's tags. */
export type PaymentScreen =
  | 'opening'
  | 'starting'
  | 'checking'
  | 'awaitingPayer'
  | 'readingResult'
  | 'paid'
  | 'declined'
  | 'cancelled'
  | 'expired'
  | 'failed'
  | 'startFailed'
  | 'checkFailed'
  | 'none';

const SCREENS: readonly (PaymentScreen & PaymentTag)[] = [
  'starting',
  'checking',
  'awaitingPayer',
  'readingResult',
  'paid',
  'declined',
  'cancelled',
  'expired',
  'failed',
  'startFailed',
  'checkFailed',
  'none',
];
const screenOf = (s: PaymentSnapshot): PaymentScreen => SCREENS.find((x) => s.hasTag(x)) ?? 'opening';

export interface PaymentView {
  screen: PaymentScreen;
  context: PaymentContext;
  send: (event: PaymentEvent) => void;
}

/** A phone (a coarse pointer) gets the Swish app button first, anything else the QR code. */
export function deviceOf(win: Pick<Window, 'matchMedia'> | undefined = typeof window === 'undefined' ? undefined : window): PaymentDevice {
  return win?.matchMedia?.('(pointer: coarse)').matches ? 'phone' : 'desktop';
}

/**
 * Runs the payment machine for one greetie: 'start' (from the review) or 'resume' (the details
 * page). Coming back to the tab (from the Swish app) reads the payment at once.
 */
export function usePayment(greetieId: string, mode: 'start' | 'resume', machine: typeof paymentMachine = paymentWithServer): PaymentView {
  const actor = useActorRef(machine, { input: { greetieId, device: deviceOf() }, inspect });
  const screen = useSelector(actor, screenOf);
  const context = useSelector(actor, (s) => s.context);

  useEffect(() => {
    if (actor.getSnapshot().matches('opening')) actor.send({ type: 'user.opened', mode });
  }, [actor, mode]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'user.returned' });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [actor]);

  return useMemo(() => ({ screen, context, send: actor.send }), [screen, context, actor]);
}
