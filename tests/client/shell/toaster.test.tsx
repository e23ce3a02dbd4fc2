import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { AppProviders } from '../../../src/app/App.tsx';
import { createAppActor, useShowToast, useToasts, type AppActor } from '../../../src/app/AppActors.tsx';
import { createI18n } from '../../../src/i18n.ts';
import { installDomStubs } from './render.tsx';
import { toastViewportRule } from '../../../src/app/shell/motion.ts';
import { toastPolicy } from '../../../styles/tokens.ts';

function ShowButton({ message, variant }: { message: string; variant?: 'info' | 'success' | 'error' }) {
  const show = useShowToast();
  return (
    <button type="button" onClick={() => show(message, variant)}>
      show {message}
    </button>
  );
}

function Count() {
  const toasts = useToasts();
  useEffect(() => {}, [toasts]);
  return <output aria-label="count">{toasts.length}</output>;
}

let actor: AppActor;
function renderToaster() {
  actor = createAppActor();
  const i18n = createI18n('sv');
  render(
    <AppProviders i18n={i18n} actor={actor}>
      {['a', 'b', 'c', 'd', 'e', 'f'].map((m) => (
        <ShowButton key={m} message={`Meddelande ${m}`} />
      ))}
      <ShowButton message="Något gick fel" variant="error" />
      <Count />
    </AppProviders>,
  );
}

const regionQuery = { name: /Aviseringar/ };
const region = () => screen.getByRole('region', regionQuery);
const shown = () => within(region()).queryAllByRole('listitem').map((li) => li.textContent?.replace('×', '').trim());

/**
 * Renders, lets Radix Toast load (it loads with the first toast), clears that first toast, then
 * fakes the clock xstate's delays run on.
 */
async function setup() {
  renderToaster();
  act(() => {
    actor.system.get('toasts')!.send({ type: 'toast.show', message: 'warm-up' });
  });
  await screen.findByRole('region', regionQuery);
  fireEvent.click(await within(region()).findByRole('button', { name: 'Stäng' }));
  expect(shown()).toEqual([]);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}

describe('toaster', () => {
  beforeEach(() => {
    installDomStubs();
  });
  afterEach(() => {
    actor.stop();
    vi.useRealTimers();
  });

  it('loads Radix Toast with the first toast and renders it in a labelled region', async () => {
    renderToaster();
    expect(screen.queryByRole('region', regionQuery)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'show Meddelande a' }));
    await screen.findByRole('region', regionQuery);
    await waitFor(() => expect(shown()).toEqual(['Meddelande a']));
  });

  it('shows at most 5 at once and drops duplicates', async () => {
    await setup();
    for (const m of ['a', 'b', 'c', 'd', 'e', 'f', 'a']) fireEvent.click(screen.getByRole('button', { name: `show Meddelande ${m}` }));
    expect(shown()).toEqual(['Meddelande a', 'Meddelande b', 'Meddelande c', 'Meddelande d', 'Meddelande e']);
  });

  it('hides each toast after 3000 ms', async () => {
    await setup();
    fireEvent.click(screen.getByRole('button', { name: 'show Meddelande a' }));
    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(shown()).toEqual(['Meddelande a']);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(shown()).toEqual([]);
  });

  it('closes a toast with its close button', async () => {
    await setup();
    fireEvent.click(screen.getByRole('button', { name: 'show Något gick fel' }));
    const toast = within(region()).getByRole('listitem');
    expect(toast).toHaveAttribute('data-variant', 'error');
    fireEvent.click(within(toast).getByRole('button', { name: 'Stäng' }));
    expect(screen.getByLabelText('count')).toHaveTextContent('0');
    expect(shown()).toEqual([]);
  });

  it('sits top right; at most 5 for 3000 ms', () => {
    renderToaster();
    expect(toastViewportRule).toEqual({ position: 'fixed', top: 0, right: 0 });
    expect(toastPolicy).toEqual({ maxVisible: 5, durationMs: 3000 });
  });

  it('can be shown by another actor with sendTo(system.get("toasts"))', async () => {
    await setup();
    act(() => {
      actor.system.get('toasts')!.send({ type: 'toast.show', message: 'Från en maskin', variant: 'success' });
    });
    expect(shown()).toEqual(['Från en maskin']);
  });
});
