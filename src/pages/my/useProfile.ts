import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shallowEqual, useActorRef, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { PROFILE_SCREENS, type profileMachine, type Profile, type ProfileError, type ProfileInput } from '../../../machines/profile.ts';
import { screenOf } from '../../components/flow.ts';
import { useAuthActor } from '../../components/session.ts';
import { inspect } from '../../inspect.ts';
import { provideProfile } from './profile.ts';

type Snapshot = SnapshotFrom<typeof profileMachine>;

export interface ProfileView {
  status: (typeof PROFILE_SCREENS)[number];
  profile: Profile | null;
  error: ProfileError | null;
  savingName: boolean;
  savingMarketing: boolean;
}

const selectView = (s: Snapshot): ProfileView => ({
  status: screenOf(s, PROFILE_SCREENS),
  profile: s.context.profile,
  error: s.context.error,
  savingName: s.hasTag('busy:name'),
  savingMarketing: s.hasTag('busy:marketing'),
});

/** Runs a profile actor (src/pages/my/profile.ts) for as long as the component is mounted: what to show and what a person can do. */
export function useProfile(input: ProfileInput) {
  const { i18n } = useTranslation();
  const auth = useAuthActor();
  const [machine] = useState(() => provideProfile(auth, i18n));
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
