import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { OpenedEvent } from '../../../machines/compose.ts';
import { ADDRESS_STEPS, isAddressStep, type AddressStep } from '../../../machines/compose/steps.ts';
import { stepOf, type ComposeView } from './useCompose.ts';

/** A step's address: /greetie/new/{step}, with the draft once there is one (before that, what the address had: a product to start from). */
export const stepAddress = (step: AddressStep, draftId: string | null, search: string) => ({
  pathname: `/greetie/new/${step}`,
  search: draftId ? `?draft=${encodeURIComponent(draftId)}` : search,
});

/**
 * What a step's history entry carries: the step it was pushed from, so 'Tillbaka' can be the
 * browser's back; and how many step entries were pushed before it, so that once the greetie is
 * paid or sent the page can go back over them at once.
 */
interface StepEntry {
  composeFrom?: AddressStep;
  composeDepth: number;
}
const pushedFrom = (state: unknown): AddressStep | null => {
  const from = (state as Partial<StepEntry> | null)?.composeFrom;
  return isAddressStep(from) ? from : null;
};
const depthOf = (state: unknown): number => {
  const depth = (state as Partial<StepEntry> | null)?.composeDepth;
  return typeof depth === 'number' && Number.isInteger(depth) && depth > 0 ? depth : 0;
};

/**
 * Keeps the address and the compose machine's step in step, the machine deciding (machines/compose.ts):
 *
 * - The page opens with the step its address names (`user.opened` with `step`, a reload).
 * - The address changes without the machine (the browser's back or forward, an address typed): the
 *   page asks for that step (`step.requested`); when the machine shows another one (the steps
 *   before are not finished, or a file is going up), the address is replaced by it.
 * - The machine changes step ('Nästa', 'Tillbaka', a draft loaded): a step forward is a new history
 *   entry, so the browser's back returns to the step before; a step back to the entry it was pushed
 *   from is the browser's back itself (the browser's forward then goes on again); anything else
 *   replaces the entry.
 *
 * Once it is paid or sent (the machine's `stepsLeft`: decision 131) the steps are behind: the page
 * goes back over the step entries it pushed to the first one, which becomes the receipt's (or the
 * sent screen's) address, so the browser's back leaves the wizard for where the person came from.
 * An old step's address reached after that (forward) is asked for, the machine keeps its screen,
 * and the address is put back. A paid greetie reloaded on a step's address (`alreadyPaid`) is
 * replaced by its own page, which has the receipt. Loading leaves the address as it is.
 */
export function useStepAddress(
  compose: Pick<ComposeView, 'screen' | 'stepsLeft' | 'draftId' | 'open' | 'requestStep'>,
  opening: () => Omit<OpenedEvent, 'type' | 'step'>,
) {
  const { step: named } = useParams();
  const asked = isAddressStep(named) ? named : null;
  const location = useLocation();
  const navigate = useNavigate();
  const { open, requestStep, draftId } = compose;
  const step = stepOf(compose.screen);
  /** The machine's step when the address was last brought in step. */
  const synced = useRef<AddressStep | null>(null);
  /** The history entry last seen: a new one is a navigation that has arrived. */
  const seen = useRef<string | null>(null);
  /**
   * The steps this page navigated to that have not arrived yet, in order (the router commits a
   * navigation a moment later: a quick click must not read the address as it was before).
   */
  const going = useRef<AddressStep[]>([]);

  // The address says what to open, once.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    open({ ...opening(), step: asked });
  }, [open, opening, asked]);

  useEffect(() => {
    if (step === null) return;
    let foreign = false;
    if (seen.current !== location.key) {
      seen.current = location.key;
      const ours = asked === null ? -1 : going.current.lastIndexOf(asked);
      foreign = ours < 0;
      going.current = foreign ? [] : going.current.slice(ours + 1);
    }
    const go = (to: AddressStep, how: 'push' | 'replace' | 'back', from: AddressStep | null = null) => {
      going.current.push(to);
      if (how === 'back') void navigate(-1);
      else if (how === 'push') {
        void navigate(stepAddress(to, draftId, location.search), { state: { composeFrom: from!, composeDepth: depthOf(location.state) + 1 } satisfies StepEntry });
      } else {
        const state = to === asked ? location.state : ({ composeDepth: depthOf(location.state) } satisfies StepEntry);
        void navigate(stepAddress(to, draftId, location.search), { replace: true, state });
      }
    };
    const prev = synced.current;
    synced.current = step;
    if (foreign && asked !== null && asked !== step) {
      // The address changed without the machine (the browser's back or forward, a reload): ask
      // the machine; the step it shows is the address.
      const shown = requestStep(asked);
      synced.current = shown;
      if (shown !== null && shown !== asked) go(shown, 'replace');
      return;
    }
    // Where the address is, or is about to be.
    const address = going.current.at(-1) ?? asked;
    if (address === step) {
      // The right step; the draft's id joins the address once it exists (a reload continues it).
      if (going.current.length === 0 && location.search !== stepAddress(step, draftId, location.search).search) go(step, 'replace');
      return;
    }
    // The machine changed step from the one the address shows: forward is a new entry, back to
    // the entry it was pushed from is the browser's back; anything else replaces the entry.
    const fromShown = prev !== null && prev === address;
    if (fromShown && ADDRESS_STEPS.indexOf(step) > ADDRESS_STEPS.indexOf(address)) go(step, 'push', address);
    else if (fromShown && going.current.length === 0 && pushedFrom(location.state) === step) go(step, 'back');
    else go(step, 'replace');
  }, [step, asked, draftId, location.key, location.search, location.state, navigate, requestStep]);

  // Paid or sent: the step entries are left behind (see above).
  const { screen, stepsLeft } = compose;
  /** Where leaving the steps is: not begun, going back from the entry with this key, or done. */
  const leaving = useRef<{ from: string } | 'done' | null>(null);
  useEffect(() => {
    if (screen === 'alreadyPaid' && draftId) {
      void navigate(`/greetie/details/${encodeURIComponent(draftId)}`, { replace: true });
      return;
    }
    if (!stepsLeft) return;
    if (leaving.current === null) {
      const depth = depthOf(location.state);
      leaving.current = { from: location.key };
      if (depth > 0) {
        void navigate(-depth);
        return;
      }
    } else if (leaving.current !== 'done' && leaving.current.from === location.key) {
      return; // on its way back
    }
    leaving.current = 'done';
    const here = stepAddress(screen === 'paid' ? 'payment' : 'review', draftId, location.search);
    if (location.pathname === here.pathname && location.search === here.search) return;
    // An old step's address (the first entry, or one reached by forward): the machine keeps its screen.
    if (asked !== null) requestStep(asked);
    void navigate(here, { replace: true, state: null });
  }, [screen, stepsLeft, asked, draftId, location.key, location.pathname, location.search, location.state, navigate, requestStep]);
}
