import type { i18n as I18n } from 'i18next';
import { sendTo } from 'xstate';
import { profileMachine, type Profile } from '../../../machines/profile.ts';
import type { ToastsActorRef, ToastVariant } from '../../../machines/toasts.ts';
import { mobileUserApi } from '../../api/mobileuser.ts';
import { fromCall } from '../../components/flow.ts';
import type { useAuthActor } from '../../components/session.ts';

/**
 * The profile machine's real implementations (machines/profile.ts), for my pages and the name
 * prompt: the HTTP calls of src/api/mobileuser.ts (each failure a Failure), the session told of a
 * saved profile (`user.profileSaved`, so the header shows the new name), toasts in the language
 * shown now, and "not now" to the name prompt remembered in this browser.
 */

const calls = mobileUserApi();
const toProfile = (u: Profile): Profile => ({ id: u.id, mobileNumber: u.mobileNumber, name: u.name, allowMarketing: u.allowMarketing });

const skipKey = (userId: string) => `greetie.namePrompt.skipped.${userId}`;

/** True when this person answered the name prompt with "not now" in this browser. */
export function namePromptSkipped(userId: string): boolean {
  try {
    return localStorage.getItem(skipKey(userId)) === '1';
  } catch {
    return false;
  }
}

export function provideProfile(auth: ReturnType<typeof useAuthActor>, i18n: I18n) {
  // The toasts live in the app's actor system, which the session's auth actor belongs to. Sent
  // with sendTo, so the other actors take the event after this one's step, not inside it.
  const toasts = () => auth.system.get('toasts') as ToastsActorRef;
  const toast = (key: string, variant: ToastVariant) => () => ({ type: 'toast.show' as const, message: i18n.t(key, { ns: 'my' }), variant });
  return profileMachine.provide({
    actors: {
      loadProfile: fromCall<Profile, { userId: string }>(async ({ input, signal }) => toProfile(await calls.get(input.userId, signal))),
      saveName: fromCall<Profile, { userId: string; name: string }>(async ({ input, signal }) =>
        toProfile(await calls.update(input.userId, { name: input.name }, signal)),
      ),
      saveMarketing: fromCall<Profile, { allowed: boolean }>(async ({ input, signal }) => toProfile(await calls.setMarketing(input.allowed, signal))),
    },
    actions: {
      announceProfile: sendTo(
        () => auth,
        (_, p: { profile: Profile }) => ({ type: 'user.profileSaved' as const, user: { id: p.profile.id, mobileNumber: p.profile.mobileNumber, name: p.profile.name } }),
      ),
      notifyNameSaved: sendTo(toasts, toast('toast.nameSaved', 'success')),
      notifyMarketingSaved: sendTo(toasts, (_, p: { allowed: boolean }) => ({
        type: 'toast.show' as const,
        message: i18n.t(p.allowed ? 'toast.marketingOn' : 'toast.marketingOff', { ns: 'my' }),
        variant: 'success' as const,
      })),
      notifyMarketingFailed: sendTo(toasts, toast('toast.marketingFailed', 'error')),
      rememberSkip: ({ context }) => {
        try {
          localStorage.setItem(skipKey(context.userId), '1');
        } catch {
          /* private mode: asked again next time */
        }
      },
    },
  });
}
