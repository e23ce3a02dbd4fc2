import { screen, waitFor, within } from '@testing-library/react';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { Greetie } from '../../../contract/greetie.ts';
import type { Product } from '../../../contract/merchant.ts';
import { SAVE_DELAY_MS, type AutosaveContext } from '../../../machines/compose/autosave.ts';
import { defineUi } from '../harness/types.ts';
import { DRAFT_ID, gift, greetie, photo, voucherProduct } from '../hooks/compose.ts';
import { LOAD, PRODUCTS, SAVE, answer, cleanupCompose, errorOf, fill, json, renderCompose, saveStatus, stepHeading, user } from './compose.tsx';

/**
 * The draft's autosave as a person meets it on /greetie/new: a resumed draft (with a gift, a number
 * and a message) on the recipient step. A change is a new message; a step change is "Nästa" to the
 * review and "Tillbaka" again (the second finds the save running and changes nothing). The server
 * is at the edge (compose's binding: fetch waits for the path's answers), the pause on fake timers.
 */
let messages = 0;
let landed = false;
const ctx = (s: AnyMachineSnapshot) => s.context as AutosaveContext;
const resumed = greetie({ media: photo, gifts: [gift], total: gift.amount, message: 'Hej', recipient: { name: null, mobileNumber: '+46701234567' } });

/** Opens the resumed draft on the recipient step, once per path (after render: the page must have rendered). */
async function land() {
  if (landed) return;
  landed = true;
  await answer(LOAD, () => json(200, resumed));
  // The gifts' limits are read as the draft arrives.
  await answer(PRODUCTS, () => json(200, [voucherProduct]));
  // It lands on the review (it has a number): back to the recipient, where the fields are.
  await user().click(await screen.findByRole('button', { name: 'Tillbaka' }, { timeout: 5000 }));
  await stepHeading('Vem ska få den?');
}

export default defineUi({
  render() {
    messages = 0;
    landed = false;
    renderCompose(`/greetie/new?draft=${DRAFT_ID}`);
  },
  events: {
    'draft.changed': async () => {
      await fill(screen.getByRole('textbox', { name: 'Meddelande' }), `Grattis ${++messages}!`);
    },
    'draft.flush': async () => {
      await user().click(screen.getByRole('button', { name: 'Nästa' }));
      await stepHeading('Granska din greetie');
      await user().click(screen.getByRole('button', { name: 'Tillbaka' }));
      await stepHeading('Vem ska få den?');
    },
    'xstate.after.saveDelay.autosave.waiting': () => {
      vi.advanceTimersByTime(SAVE_DELAY_MS);
    },
    'xstate.done.actor.saveDraft': async (_env, event) => {
      vi.advanceTimersByTime(SAVE_DELAY_MS);
      await answer(SAVE, () => json(200, (event as EventObject & { output: Greetie }).output));
    },
    'xstate.error.actor.saveDraft': async (_env, event) => {
      vi.advanceTimersByTime(SAVE_DELAY_MS);
      await answer(SAVE, () => errorOf(event));
    },
    // A save refused because a gift sold out: the gifts' products are read again to name it.
    'xstate.done.actor.findSoldOut': (_env, event) => answer(PRODUCTS, () => json(200, (event as EventObject & { output: Product[] }).output)),
    'xstate.error.actor.findSoldOut': (_env, event) => answer(PRODUCTS, () => errorOf(event)),
    'user.retrySave': async () => {
      await user().click(screen.getByRole('button', { name: /^(Spara igen|Försök spara igen)$/ }));
    },
  },
  states: {
    // First, every time: the page has landed where the path starts (the first check does it).
    '*': land,
    saved: async () => {
      await waitFor(() => expect(saveStatus()).toHaveTextContent('Sparat'));
    },
    // Waiting and saving look alike: a slow step may let the pause end before the path says so.
    waiting: async () => {
      await waitFor(() => expect(saveStatus()).toHaveTextContent('Sparar…'));
    },
    saving: async () => {
      await waitFor(() => expect(saveStatus()).toHaveTextContent('Sparar…'));
    },
    // A field refused (a mistyped number): no alert, no "Spara igen"; the status says it waits for it.
    invalid: async () => {
      await waitFor(() => expect(saveStatus()).toHaveTextContent('Sparas när allt är rätt ifyllt'));
      expect(screen.queryByText('Ändringarna kunde inte sparas')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Spara igen' })).not.toBeInTheDocument();
    },
    'failed.refused': async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Ändringarna kunde inte sparas');
      expect(within(alert).getByRole('button', { name: 'Spara igen' })).toBeEnabled();
    },
    // A gift sold out: its own alert, which names the gift once its products are read again.
    'failed.soldOut': async () => {
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('En present är slut just nu');
      expect(within(alert).getByRole('button', { name: 'Försök spara igen' })).toBeEnabled();
    },
    'failed.soldOut.found': async (_env, s) => {
      const alert = await screen.findByRole('alert');
      const named = ctx(s).soldOut?.includes(gift.productId) ?? false;
      await waitFor(() => expect(alert).toHaveTextContent(named ? /är slut just nu\. Ta bort den/ : /En av presenterna är slut just nu/));
    },
  },
  cleanup: cleanupCompose,
});
