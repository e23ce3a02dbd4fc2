import { fromPromise, type NonReducibleUnknown, type PromiseActorLogic } from 'xstate';
import { toFailure } from '../api/errors.ts';

/**
 * The two pieces every flow's wiring shares (docs/ARCHITECTURE.md, "One flow, one shape"): an
 * actor implementation that rejects only with the one Failure, and the screen read from tags.
 */

/**
 * A promise actor for a server call whose rejection, whatever it was, reaches the machine as a
 * Failure (contract/errors.ts): the one place a flow's errors are mapped. Use it in the page
 * group's implementations file, where the machine is given its real actors with `.provide()`.
 */
export function fromCall<Output, Input = NonReducibleUnknown>(
  call: (args: { input: Input; signal: AbortSignal }) => Promise<Output>,
): PromiseActorLogic<Output, Input> {
  return fromPromise<Output, Input>(async ({ input, signal }) => {
    try {
      return await call({ input, signal });
    } catch (error) {
      throw toFailure(error);
    }
  });
}

/**
 * What a page shows, from the snapshot's tags: the first of `screens` the state carries. Each
 * machine exports its screens (the tags every state carries exactly one of) and derives its tag
 * type from them, so the list is the tags themselves, not a copy. A state with none of them (it
 * never happens in a well-made chart) shows the first.
 */
export function screenOf<Tag extends string, const Screen extends Tag>(snapshot: { hasTag: (tag: Tag) => boolean }, screens: readonly [Screen, ...Screen[]]): Screen {
  return screens.find((screen) => snapshot.hasTag(screen)) ?? screens[0];
}
