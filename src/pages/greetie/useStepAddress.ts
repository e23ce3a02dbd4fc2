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

/** What a pushed step's history entry carries: the step it was pushed from, so 'Tillbaka' can be the browser's back. */
interface StepEntry {
  composeFrom: AddressStep;
}
const pushedFrom = (state: unknown): AddressStep | null => {
  const from = (state as Partial<StepEntry> | null)?.composeFrom;
  return isAddressStep(from) ? from : null;
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
 * Screens that are no step (loading, sent, the receipt) leave the address as it is.
 */
export function useStepAddress(compose: Pick<ComposeView, 'screen' | 'draftId' | 'open' | 'requestStep'>, opening: () => Omit<OpenedEvent, 'type' | 'step'>) {
  const { step: named } = useParams();
  const asked = isAddressStep(named) ? named : null;
  const location = useLocation();
  const navigate = useNavigate();
  const { open, requestStep, draftId } = compose;
  const step = stepOf(compose.screen);
  /** The machine's step when the address was last brought in step. */
  const synced = useRef<AddressStep | null>(null);
  /** The history entry whose step the machine was last asked for (the one it opened with, first). */
  const answered = useRef<string | null>(null);

  // The address says what to open, once.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    answered.current = location.key;
    open({ ...opening(), step: asked });
  }, [open, opening, asked, location.key]);

  useEffect(() => {
    if (step === null) return;
    const moved = synced.current !== step;
    synced.current = step;
    const here = stepAddress(step, draftId, location.search);
    if (asked === step) {
      // The right step; the draft's id joins the address once it exists (a reload continues it).
      if (location.search !== here.search) void navigate(here, { replace: true, state: location.state });
      return;
    }
    if (answered.current === location.key) {
      // The machine answered this address with another step: the address says which.
      void navigate(here, { replace: true });
      return;
    }
    if (!moved && asked !== null) {
      // The address changed on its own: ask the machine; the step it shows is the address.
      answered.current = location.key;
      const shown = requestStep(asked);
      if (shown !== null && shown !== asked) void navigate(stepAddress(shown, draftId, location.search), { replace: true });
      return;
    }
    // The machine changed step.
    const forward = asked !== null && ADDRESS_STEPS.indexOf(step) > ADDRESS_STEPS.indexOf(asked);
    if (forward) void navigate(here, { state: { composeFrom: asked } satisfies StepEntry });
    else if (pushedFrom(location.state) === step) void navigate(-1);
    else void navigate(here, { replace: true });
  }, [step, asked, draftId, location.key, location.search, location.state, navigate, requestStep]);
}
