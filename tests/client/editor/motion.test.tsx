import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { ContentLayer } from '../../../src/pages/greetie/editor/overlay.ts';
import { stubAnimationFetch, stubReducedMotion, type fakeLottie } from './render.tsx';
import type { ContentElement } from '../../../contract/greetie.ts';

const lottie = vi.hoisted(() => ({ module: undefined as unknown as ReturnType<typeof fakeLottie> }));
vi.mock('lottie-web/build/player/lottie_light', async () => {
  lottie.module = (await import('./render.tsx')).fakeLottie();
  return lottie.module;
});

const confetti = { id: 'c', type: 'lottie', value: 'confetti', x: 0.5, y: 0.5, scale: 1, rotation: 0 } as ContentElement;

beforeEach(() => lottie.module?.reset());
afterEach(() => vi.unstubAllGlobals());

describe('animations and reduced motion', () => {
  it('plays an animation in a loop from the app’s own /lottie/<id>.json', async () => {
    stubReducedMotion(false);
    const fetch = stubAnimationFetch();
    const { container } = render(<ContentLayer elements={[confetti]} />);
    await waitFor(() => expect(lottie.module?.calls).toHaveLength(1));
    expect(fetch).toHaveBeenCalledWith('/lottie/confetti.json');
    expect(lottie.module.calls[0]).toMatchObject({ renderer: 'svg', loop: true, autoplay: true });
    expect(lottie.module.anims[0]!.stops).toEqual([]);
    expect(container.querySelector('[data-motion]')).toHaveAttribute('data-motion', 'playing');
  });

  it('shows one still frame (the middle one) when the person prefers reduced motion', async () => {
    stubReducedMotion(true);
    stubAnimationFetch();
    const { container, unmount } = render(<ContentLayer elements={[confetti]} />);
    await waitFor(() => expect(lottie.module?.calls).toHaveLength(1));
    expect(lottie.module.calls[0]).toMatchObject({ autoplay: false });
    expect(lottie.module.anims[0]!.stops).toEqual([[45, true]]);
    expect(container.querySelector('[data-motion]')).toHaveAttribute('data-motion', 'still');
    unmount();
    expect(lottie.module.anims[0]!.destroyed).toBe(true);
  });

  it('draws elements where the overlay draws them: centred on x, y, turned, then scaled', () => {
    stubAnimationFetch();
    const { container } = render(
      <ContentLayer elements={[{ id: 't', type: 'text', value: 'Grattis!', x: 0.25, y: 0.75, scale: 1.5, rotation: -30 } as ContentElement]} />,
    );
    const placed = container.querySelector<HTMLElement>('[style]')!;
    expect(placed.style.left).toBe('25%');
    expect(placed.style.top).toBe('75%');
    expect(placed.style.transform).toBe('translate(-50%, -50%) rotate(-30deg) scale(1.5)');
    expect(container).toHaveTextContent('Grattis!');
  });
});
