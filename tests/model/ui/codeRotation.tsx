import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { expect, vi } from 'vitest';
import type { CodeRotationContext } from '../../../machines/codeRotation.ts';
import { installPortalServer, json, owner } from '../../client/portal/fakePortal.ts';
import { installDomStubs, renderRoute, signedIn } from '../../client/shell/render.tsx';
import { defineUi } from '../harness/types.ts';
import { MERCHANT_ID } from '../hooks/codeRotation.ts';

/**
 * "Byt handlarkod" as the owner meets it on /portal/{merchantId} (the page runs its own machine
 * with the real API call). The server is fetch, stubbed at the edge (tests/client/portal/fakePortal.ts):
 * the merchant, its figures and redemptions answer at once; POST …/code answers when the path says.
 */
type Pending = { answer: (r: Response) => void };
let pending: Pending[] = [];

const answered = async (make: () => Response) => {
  await waitFor(() => expect(pending.length).toBeGreaterThan(0), { timeout: 5000 });
  const now = pending;
  pending = [];
  for (const p of now) p.answer(make());
};
const ctx = (s: AnyMachineSnapshot) => s.context as CodeRotationContext;
const user = () => userEvent.setup();
const dialog = (name: string) => screen.findByRole('dialog', { name }, { timeout: 5000 });

export default defineUi({
  render() {
    pending = [];
    installDomStubs({ viewport: 'mobile' });
    const server = installPortalServer([{ ...owner, id: MERCHANT_ID }]);
    server.code = () => new Promise<Response>((resolve) => pending.push({ answer: resolve }));
    renderRoute(`/portal/${MERCHANT_ID}`, { session: signedIn({ id: 'u1', merchants: [{ ...owner, id: MERCHANT_ID }] }) });
  },
  events: {
    'user.start': async () => {
      await user().click(await screen.findByRole('button', { name: 'Byt handlarkod' }, { timeout: 5000 }));
    },
    'user.confirm': async () => {
      await user().click(within(await dialog('Byta handlarkod?')).getByRole('button', { name: 'Byt kod' }));
    },
    'user.cancel': async () => {
      await user().click(within(await dialog('Byta handlarkod?')).getByRole('button', { name: 'Avbryt' }));
    },
    'user.saved': async () => {
      await user().click(within(await dialog('Din nya handlarkod')).getByRole('button', { name: 'Jag har sparat koden' }));
    },
    'user.close': async () => {
      await user().click(within(await dialog('Koden byttes inte')).getByRole('button', { name: 'Stäng' }));
    },
    'xstate.done.actor.rotateCode': (_env, event: EventObject) => answered(() => json(200, (event as EventObject & { output: unknown }).output)),
    'xstate.error.actor.rotateCode': (_env, event: EventObject) => {
      const e = (event as EventObject & { error: { status: number; code: string; message: string } }).error;
      return answered(() => json(e.status, { code: e.code, message: e.message }));
    },
  },
  states: {
    idle: async () => {
      expect(await screen.findByRole('button', { name: 'Byt handlarkod' }, { timeout: 5000 })).toBeEnabled();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(screen.queryByTestId('new-merchant-code')).not.toBeInTheDocument();
    },
    confirming: async () => {
      const d = await dialog('Byta handlarkod?');
      expect(d).toHaveTextContent('Den gamla koden slutar gälla direkt, i alla kassor.');
      await waitFor(() => expect(within(d).getByRole('button', { name: 'Byt kod' })).toBeEnabled());
    },
    rotating: async () => {
      const d = await dialog('Byta handlarkod?');
      await waitFor(() => expect(within(d).getByRole('button', { name: 'Byt kod' })).toBeDisabled());
      expect(within(d).getByRole('status')).toHaveTextContent('Skapar en ny kod…');
    },
    shown: async (_env, s) => {
      const d = await dialog('Din nya handlarkod');
      expect(within(d).getByTestId('new-merchant-code')).toHaveTextContent(ctx(s).merchantCode!);
      expect(within(d).getByRole('button', { name: 'Kopiera' })).toBeEnabled();
    },
    failed: async (_env, s) => {
      const d = await dialog('Koden byttes inte');
      expect(within(d).getByRole('alert')).toHaveTextContent(ctx(s).error!.message);
      expect(within(d).getByRole('alert')).toHaveTextContent('Den gamla koden gäller fortfarande.');
    },
  },
  cleanup: () => {
    vi.restoreAllMocks();
  },
});
