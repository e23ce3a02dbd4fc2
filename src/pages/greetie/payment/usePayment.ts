import { useEffect, useMemo, useState } from 'react';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { Failure } from '../../../../contract/errors.ts';
import type { Payment } from '../../../../contract/payment.ts';
import { PAYMENT_SCREENS, paymentMachine, type PaymentDevice, type PaymentScreen } from '../../../../machines/payment.ts';
import { screenOf } from '../../../components/flow.ts';
import { inspect } from '../../../inspect.ts';
import { paymentWithServer } from './implementations.ts';

export type PaymentActor = ActorRefFrom<typeof paymentMachine>;

/** What the page shows, from the state's screen tag (PAYMENT_SCREENS); 'opening' before the page has said which payment. */
export type { PaymentScreen };

/** The payment as the page shows it, and what the person can do. */
export interface PaymentView {
  screen: PaymentScreen;
  device: PaymentDevice;
  payment: Payment | null;
  /** The Swish number the request went to (e-commerce), or null. */
  payerAlias: string | null;
  payerInvalid: boolean;
  readFailed: boolean;
  failure: Failure | null;
  /** The withdrawal consent is ticked (handed over from the review, or ticked here before trying again). */
  consented: boolean;
  consentMissing: boolean;
  /** The consent was not handed over from the review (the details page): the box is shown before trying again. */
  asksConsent: boolean;
  consentTo: (consented: boolean) => void;
  showQr: () => void;
  showAppButton: () => void;
  openedSwish: () => void;
  submitPayer: (payerAlias: string) => void;
  changePayment: () => void;
  retry: () => void;
}

type Snapshot = SnapshotFrom<typeof paymentMachine>;

const select = (s: Snapshot) => ({
  screen: screenOf(s, PAYMENT_SCREENS),
  device: s.context.device,
  payment: s.context.payment,
  payerAlias: s.context.payerAlias,
  payerInvalid: s.context.payerInvalid,
  readFailed: s.context.readFailed,
  failure: s.context.error,
  consented: s.context.consented,
  consentMissing: s.context.consentMissing,
  asksConsent: s.context.asksConsent,
});

/** A phone (a coarse pointer) gets the Swish app button first, anything else the QR code. */
export function deviceOf(win: Pick<Window, 'matchMedia'> | undefined = typeof window === 'undefined' ? undefined : window): PaymentDevice {
  return win?.matchMedia?.('(pointer: coarse)').matches ? 'phone' : 'desktop';
}

/** Runs the payment machine on its own for one greetie (the details page); compose invokes its own. */
export function usePaymentActor(greetieId: string): PaymentActor {
  const [machine] = useState(paymentWithServer);
  return useActorRef(machine, { input: { greetieId, device: deviceOf() }, inspect });
}

/**
 * The payment's view model and commands: 'start' (from the review) or 'resume' (the details
 * page) opens it once. Coming back to the tab (from the Swish app) reads the payment at once.
 */
export function usePayment(actor: PaymentActor, mode: 'start' | 'resume'): PaymentView {
  const state = useSelector(actor, select, shallowEqual);

  useEffect(() => {
    const opened = { type: 'user.opened', mode } as const;
    if (actor.getSnapshot().can(opened)) actor.send(opened);
  }, [actor, mode]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'user.returned' });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [actor]);

  const commands = useMemo(
    () => ({
      showQr: () => actor.send({ type: 'user.showQr' }),
      showAppButton: () => actor.send({ type: 'user.showAppButton' }),
      openedSwish: () => actor.send({ type: 'user.openedSwish' }),
      submitPayer: (payerAlias: string) => actor.send({ type: 'user.submitPayer', payerAlias }),
      changePayment: () => actor.send({ type: 'user.changePayment' }),
      retry: () => actor.send({ type: 'user.retry' }),
      consentTo: (consented: boolean) => actor.send({ type: 'user.consented', consented }),
    }),
    [actor],
  );
  return useMemo(() => ({ ...state, ...commands }), [state, commands]);
}
