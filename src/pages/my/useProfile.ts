import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import { fromPromise, sendTo, type SnapshotFrom } from 'xstate';
import { profileMachine, type Profile, type ProfileError, type ProfileInput } from '../../../machines/profile.ts';
import type { ToastsActorRef, ToastVariant } from '../../../machines/toasts.ts';
import { mobileUserApi } from '../../api/mobileuser.ts';
import { useAuthActor } from '../../components/session.ts';
import { inspect } from '../../inspect.ts';

/**
 * The profile machine (machines/profile.ts) with its real implementations, for my pages and the
 * name prompt: the HTTP calls of src/api/mobileuser.ts, the session told of a saved profile
 * (`user.profileSaved`, so the header shows the new name), toasts in the language shown now, and
 * "not now" to the name prompt remembered in this browser.
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

type Snapshot = SnapshotFrom<typeof profileMachine>;

export interface ProfileView {
  status: 'loading' | 'failed' | 'ready' | 'skipped';
  profile: Profile | null;
  error: ProfileError | null;
  savingName: boolean;
  savingMarketing: boolean;
}

const selectView = (s: Snapshot): ProfileView => ({
  status: s.hasTag('skipped') ? 'skipped' : s.hasTag('failed') ? 'failed' : s.hasTag('ready') ? 'ready' : 'loading',
  profile: s.context.profile,
  error: s.context.error,
  savingName: s.hasTag('busy:name'),
  savingMarketing: s.hasTag('busy:marketing'),
});

/** Runs a profile actor for as long as the component is mounted: what to show and what a person can do. */
export function useProfile(input: ProfileInput) {
  const { i18n } = useTranslation();
  const auth = useAuthActor();
  const [machine] = useState(() => {
    // The toasts live in the app's actor system, which the session's auth actor belongs to. Sent
    // with sendTo, so the other actors take the event after this one's step, not inside it.
    const toasts = () => auth.system.get('toasts') as ToastsActorRef;
    const toast = (key: string, variant: ToastVariant) => () => ({ type: 'toast.show' as const, message: i18n.t(key, { ns: 'my' }), variant });
    return profileMachine.provide({
      actors: {
        loadProfile: fromPromise<Profile, { userId: string }>(async ({ input: i, signal }) => toProfile(await calls.get(i.userId, signal))),
        saveName: fromPromise<Profile, { userId: string; name: string }>(async ({ input: i, signal }) =>
          toProfile(await calls.update(i.userId, { name: i.name }, signal)),
        ),
        saveMarketing: fromPromise<Profile, { allowed: boolean }>(async ({ input: i, signal }) => toProfile(await calls.setMarketing(i.allowed, signal))),
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
  });
  const actor = useActorRef(machine, { input, inspect });
  const view = useSelector(actor, selectView, shallowEqual);
  const [actions] = useState(() => ({
    saveName: (name: string) => actor.send({ type: 'user.saveName', name }),
    setMarketing: (allowed: boolean) => actor.send({ type: 'user.setMarketing', allowed }),
    skip: () => actor.send({ type: 'user.skip' }),
    retry: () => actor.send({ type: 'user.retry' }),
  }));
  return { ...view, ...actions };
}
