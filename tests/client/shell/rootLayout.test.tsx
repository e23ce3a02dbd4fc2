import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { installDomStubs, loadingSession, renderRoute, visitor } from './render.tsx';
import { pageEnterKeyframes, pageTransitionRule } from '../../../src/app/shell/motion.ts';
import { media, transition } from '../../../styles/tokens.ts';

let scrollTo: ReturnType<typeof installDomStubs>['scrollTo'];
beforeEach(() => {
  ({ scrollTo } = installDomStubs());
});

describe('root layout', () => {
  it('scrolls the window to the top whenever the path changes', async () => {
    const { navigate } = renderRoute('/');
    await screen.findByRole('heading', { level: 1 });
    // The first page's own scroll is in (an effect after the commit that showed the heading).
    await waitFor(() => expect(scrollTo).toHaveBeenCalled());
    scrollTo.mockClear();
    await navigate('/merchant');
    await screen.findByRole('heading', { level: 1, name: 'Handlare' });
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    scrollTo.mockClear();
    await navigate('/start');
    await screen.findByRole('heading', { level: 1, name: 'Kom igång med Greetie' });
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('does not scroll when only the query changes', async () => {
    const { navigate } = renderRoute('/merchant');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(scrollTo).toHaveBeenCalled());
    scrollTo.mockClear();
    await navigate('/merchant?q=kaffe');
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('hides the page behind a loading indicator while the session loads', async () => {
    const { changeSession } = renderRoute('/', { session: loadingSession });
    expect(await screen.findByRole('status')).toHaveTextContent('Laddar…');
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    expect(screen.queryByRole('main')).not.toBeInTheDocument();
    changeSession(visitor);
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Laddar…')).not.toBeInTheDocument();
  });

  it('moves focus to the main heading after a route change', async () => {
    const { navigate } = renderRoute('/');
    await screen.findByRole('heading', { level: 1 });
    await navigate('/start');
    const h1 = await screen.findByRole('heading', { level: 1, name: 'Kom igång med Greetie' });
    await waitFor(() => expect(h1).toHaveFocus());
  });

  it('does not steal focus on the first page load', async () => {
    renderRoute('/');
    const h1 = await screen.findByRole('heading', { level: 1 });
    expect(h1).not.toHaveFocus();
  });

  it('has a skip link that moves focus to the main region', async () => {
    const { user } = renderRoute('/');
    await screen.findByRole('heading', { level: 1 });
    const skip = screen.getByRole('link', { name: 'Hoppa till innehållet' });
    expect(skip).toHaveAttribute('href', '#main');
    await user.tab();
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('wraps each page in the page transition', async () => {
    const { navigate } = renderRoute('/');
    await screen.findByRole('heading', { level: 1 });
    const before = document.querySelector('[data-page-transition]');
    expect(before).not.toBeNull();
    await navigate('/start');
    await screen.findByRole('heading', { level: 1, name: 'Kom igång med Greetie' });
    const after = document.querySelector('[data-page-transition]');
    // A new element per path, so the enter animation runs again.
    expect(after).not.toBe(before);
  });
});

describe('page transition rule', () => {
  it('runs 0.45 s with cubic-bezier(0.4, 0, 0.1, 1)', () => {
    expect(transition).toEqual({ duration: '0.45s', easing: 'cubic-bezier(0.4, 0, 0.1, 1)' });
    expect(pageTransitionRule.animationDuration).toBe('0.45s');
    expect(pageTransitionRule.animationTimingFunction).toBe('cubic-bezier(0.4, 0, 0.1, 1)');
    expect(pageEnterKeyframes.from.opacity).toBe(0);
  });

  it('is switched off under prefers-reduced-motion', () => {
    expect(media.reducedMotion).toBe('(prefers-reduced-motion: reduce)');
    expect(pageTransitionRule['@media'][media.reducedMotion]).toEqual({ animationName: 'none', animationDuration: '0s' });
  });
});
