import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
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
function setup() {
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

const region = () => screen.getByRole('region', { name: /Aviseringar/ });
const shown = () => within(region()).queryAllByRole('listitem').map((li) => li.textContent?.replace('×', '').trim());

describe('toaster', () => {
  beforeEach(() => {
    installDomStubs();
    vi.useFakeTimers();
  });
  afterEach(() => {
    actor.stop();
    vi.useRealTimers();
  });

  it('renders a toast from any component through the toasts actor, in a Radix viewport', () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'show Meddelande a' }));
    expect(shown()).toEqual(['Meddelande a']);
  });

  it('shows at most 5 at once and drops duplicates', () => {
    setup();
    for (const m of ['a', 'b', 'c', 'd', 'e', 'f', 'a']) fireEvent.click(screen.getByRole('button', { name: `show Meddelande ${m}` }));
    expect(shown()).toEqual(['Meddelande a', 'Meddelande b', 'Meddelande c', 'Meddelande d', 'Meddelande e']);
  });

  it('hides each toast after 3000 ms', () => {
    setup();
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

  it('closes a toast with its close button', () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'show Något gick fel' }));
    const toast = within(region()).getByRole('listitem');
    expect(toast).toHaveAttribute('data-variant', 'error');
    fireEvent.click(within(toast).getByRole('button', { name: 'Stäng' }));
    expect(screen.getByLabelText('count')).toHaveTextContent('0');
  });

  it('sits top right; at most 5 for 3000 ms', () => {
    expect(toastViewportRule).toEqual({ position: 'fixed', top: 0, right: 0 });
    expect(toastPolicy).toEqual({ maxVisible: 5, durationMs: 3000 });
  });

  it('can be shown by another actor with sendTo(system.get("toasts"))', () => {
    setup();
    act(() => {
      actor.system.get('toasts')!.send({ type: 'toast.show', message: 'Från en maskin', variant: 'success' });
    });
    expect(shown()).toEqual(['Från en maskin']);
  });
});
