import type { GreetieThanks } from '../../../../contract/greetie.ts';
import { thanksMachine, type ThanksEmoji } from '../../../../machines/thanks.ts';
import { thankSender } from '../../../api/greetie.ts';
import { fromCall } from '../../../components/flow.ts';

/**
 * The thank-you's real implementation (machines/thanks.ts): POST /greetie/{id}/thanks, whose
 * refusal reaches the machine as one Failure. The answer is the greetie; the machine keeps its
 * `thanks` (what the server saved, with its time).
 */
export const thanks = thanksMachine.provide({
  actors: {
    sendThanks: fromCall<GreetieThanks, { greetieId: string; message: string; emoji: ThanksEmoji | null }>(async ({ input, signal }) => {
      const { greetieId, message, emoji } = input;
      const g = await thankSender(greetieId, { message, emoji }, signal);
      return g.thanks ?? { message, emoji, createdAt: new Date().toISOString() };
    }),
  },
});
