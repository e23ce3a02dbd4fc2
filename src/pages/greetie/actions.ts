import type { Greetie } from '../../../contract/greetie.ts';
import { greetieActionsMachine, type GreetieAction } from '../../../machines/greetieActions.ts';
import { cancelGreetie, correctRecipient, resendGreetie } from '../../api/greetie.ts';
import { fromCall } from '../../components/flow.ts';

/**
 * The sender's actions' real implementations (machines/greetieActions.ts): POST
 * /greetie/{id}/cancel, /resend or /recipient, whose refusal reaches the machine as one Failure
 * (a 429's Retry-After becomes the moment to try again).
 */
export const greetieActions = greetieActionsMachine.provide({
  actors: {
    performAction: fromCall<Greetie, { greetieId: string; request: GreetieAction }>(({ input, signal }) => {
      const { greetieId, request } = input;
      if (request.kind === 'cancel') return cancelGreetie(greetieId, signal);
      if (request.kind === 'resend') return resendGreetie(greetieId, signal);
      return correctRecipient(greetieId, { mobileNumber: request.mobileNumber, name: request.name }, signal);
    }),
  },
});
