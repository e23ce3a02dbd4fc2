import { useEffect, useRef, useState } from 'react';
import type { AnimationId } from '../../../../contract/catalogue.ts';
import { loadAnimationData, loadLottie, stillFrame, type LottieAnimation } from './lottie.ts';
import { useReducedMotion } from './motion.ts';

/**
 * One catalogue animation, played in a loop; a still frame when the person prefers reduced motion
 * or when `still` is asked for (previews). Decorative: the element around it carries the name.
 */
export function LottiePlayer({ id, className, still = false }: { id: AnimationId; className?: string; still?: boolean }) {
  const ref = useRef<HTMLSpanElement>(null);
  const reduced = useReducedMotion();
  const paused = still || reduced;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let anim: LottieAnimation | undefined;
    Promise.all([loadLottie(), loadAnimationData(id)])
      .then(([lottie, animationData]) => {
        if (cancelled || !ref.current) return;
        setFailed(false);
        anim = lottie.loadAnimation({
          container: ref.current,
          renderer: 'svg',
          loop: true,
          autoplay: !paused,
          animationData,
          rendererSettings: { preserveAspectRatio: 'xMidYMid meet' },
        });
        if (paused) anim.goToAndStop(stillFrame(anim), true);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      anim?.destroy();
    };
  }, [id, paused]);

  return <span ref={ref} className={className} aria-hidden="true" data-motion={paused ? 'still' : 'playing'} data-failed={failed || undefined} />;
}
