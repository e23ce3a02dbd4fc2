import { render, screen, within } from '@testing-library/react';
import { createActor, type AnyStateMachine, type SimulatedClock } from 'xstate';
import { appMachine } from '../../../machines/app.ts';
import { AppProviders } from '../../../src/app/App.tsx';
import type { AppActor } from '../../../src/app/AppActors.tsx';
import { createI18n } from '../../../src/i18n.ts';
import { installDomStubs } from '../../client/shell/render.tsx';

/**
 * Renders the app's providers (actor system, Toaster) with the root actor built from the machines
 * the app runs, given the actors under test, on the harness's simulated clock.
 */
export function renderAppShell(actors: Record<string, AnyStateMachine>, clock: SimulatedClock, root: AnyStateMachine = appMachine) {
  installDomStubs();
  // Radix Toast's swipe handling asks for pointer capture, which jsdom lacks.
  if (!Element.prototype.hasPointerCapture) {
    Element.prototype.hasPointerCapture = () => false;
    Element.prototype.setPointerCapture = () => {};
    Element.prototype.releasePointerCapture = () => {};
  }
  const actor = createActor(root.provide({ actors } as never), { clock }) as unknown as AppActor;
  render(
    <AppProviders i18n={createI18n('sv')} actor={actor}>
      <p>Greetie</p>
    </AppProviders>,
  );
  return actor;
}

/** The messages in the toast region, top to bottom, as the user reads them. */
export function visibleToasts(): string[] {
  const region = screen.queryByRole('region', { name: /Aviseringar/ });
  if (!region) return [];
  return within(region)
    .queryAllByRole('listitem')
    .map((li) => (li.textContent ?? '').replace('×', '').trim());
}
