import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useBootPageHandOver } from '../../../src/components/bootPage.ts';

/**
 * The server's first screen (#boot-page, decision 094) goes once the page's own render is in place,
 * and never outlives the page that was to take it over.
 */

function Page() {
  const ref = useBootPageHandOver<HTMLElement>();
  return (
    <section ref={ref} data-boot-page="landing">
      <h1>Skicka en hälsning med en riktig present i</h1>
    </section>
  );
}

const layer = () => {
  const el = document.createElement('div');
  el.id = 'boot-page';
  document.body.append(el);
  return el;
};

afterEach(() => document.getElementById('boot-page')?.remove());

describe("the server's first screen", () => {
  it('is removed once the page has rendered (in the frame after, with no transition running)', async () => {
    const boot = layer();
    render(<Page />);
    await waitFor(() => expect(boot.isConnected).toBe(false));
  });

  it('is removed when the page goes before the hand-over', () => {
    const boot = layer();
    const { unmount } = render(<Page />);
    unmount();
    expect(boot.isConnected).toBe(false);
  });

  it('leaves the document alone when there is no layer', () => {
    expect(() => render(<Page />)).not.toThrow();
  });
});
