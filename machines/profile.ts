import { assign, fromPromise, setup } from 'xstate';
import type { MobileUser } from '../contract/auth.ts';
import type { Failure } from '../contract/errors.ts';
import { checkName, type NameProblem } from '../contract/name.ts';

/**
 * One's own profile on my pages (/my/profile, /my/settings) and in the name prompt after the first
 * sign-in: load it, save a name, turn the marketing consent on or off, or (the prompt) say "not
 * now".
 *
 * A name is checked here with the server's own rule (contract/mobileuser.ts) before anything is
 * sent. The consent switch shows the new value at once and goes back if saving fails.
 *
 * Side effects are named: the actors `loadProfile`, `saveName`, `saveMarketing` (the HTTP calls),
 * the actions `announceProfile` (tell the session, so the header shows the new name),
 * `notifyNameSaved`, `notifyMarketingSaved`, `notifyMarketingFailed` (toasts) and `rememberSkip`
 * (the name prompt was answered with "not now"). The calls reject with a Failure. The page group
 * provides them with `.provide()` (src/pages/my/profile.ts).
 *
 * Tags say what the page shows: `loading`, `failed`, `ready`, `busy`, `busy:name`,
 * `busy:marketing`, `skipped`.
 */

export type Profile = Pick<MobileUser, 'id' | 'mobileNumber' | 'name' | 'allowMarketing'>;

export interface ProfileInput {
  /** Whose profile (the signed-in user's own id). */
  userId: string;
}

/**
 * A failure (contract/errors.ts: an answer of the server's, or the name rule's own check with its
 * NAME_* code) and where the page shows it: under the name field, by the consent switch, or as the
 * page's load failure.
 */
export interface ProfileError extends Failure {
  field: 'name' | 'marketing' | 'load';
}

export interface ProfileContext {
  userId: string;
  profile: Profile | null;
  /** The name being saved (trimmed). */
  pendingName: string;
  /** The consent as it was before the switch was turned (restored when saving fails). */
  previousMarketing: boolean;
  error: ProfileError | null;
}

export type ProfileEvent =
  | { type: 'user.saveName'; name: string }
  | { type: 'user.setMarketing'; allowed: boolean }
  | { type: 'user.skip' }
  | { type: 'user.retry' };

/** What the page shows; every state has exactly one of these tags. */
export const PROFILE_SCREENS = ['loading', 'failed', 'ready', 'skipped'] as const;
export type ProfileTag = (typeof PROFILE_SCREENS)[number] | 'busy' | 'busy:name' | 'busy:marketing';

const at = (field: ProfileError['field'], failure: Failure): ProfileError => ({ ...failure, field });

const nameProblem = (name: string): NameProblem | null => {
  const checked = checkName(name);
  return checked.ok ? null : checked.problem;
};

export const profileMachine = setup({
  types: {
    context: {} as ProfileContext,
    events: {} as ProfileEvent,
    input: {} as ProfileInput,
    tags: {} as ProfileTag,
  },
  actors: {
    /** GET /mobileuser/{id}. */
    loadProfile: fromPromise<Profile, { userId: string }>(async () => {
      throw new Error('loadProfile is not provided');
    }),
    /** POST /mobileuser/{id} with the name. */
    saveName: fromPromise<Profile, { userId: string; name: string }>(async () => {
      throw new Error('saveName is not provided');
    }),
    /** POST /mobileuser/allowmarketing?isAllowed=. */
    saveMarketing: fromPromise<Profile, { allowed: boolean }>(async () => {
      throw new Error('saveMarketing is not provided');
    }),
  },
  actions: {
    storeProfile: assign((_, p: { profile: Profile }) => ({ profile: p.profile, error: null })),
    storeLoadError: assign((_, p: { error: Failure }) => ({ error: at('load', p.error) })),
    clearError: assign({ error: null }),
    assignPendingName: assign(({ event }) => {
      if (event.type !== 'user.saveName') return {};
      const checked = checkName(event.name);
      return { pendingName: checked.ok ? checked.name : '', error: null };
    }),
    assignNameProblem: assign(({ event }) =>
      event.type === 'user.saveName' ? { error: at('name', { status: 0, code: nameProblem(event.name) ?? 'UNKNOWN', message: '', retryAt: null }) } : {},
    ),
    assignNameError: assign((_, p: { error: Failure }) => ({ error: at('name', p.error) })),
    /** Shows the new consent at once; the old one is kept to go back to. */
    assignMarketing: assign(({ context, event }) =>
      event.type === 'user.setMarketing' && context.profile
        ? { previousMarketing: context.profile.allowMarketing, profile: { ...context.profile, allowMarketing: event.allowed }, error: null }
        : {},
    ),
    restoreMarketing: assign(({ context }, p: { error: Failure }) => ({
      profile: context.profile ? { ...context.profile, allowMarketing: context.previousMarketing } : null,
      error: at('marketing', p.error),
    })),
    /** Tell the session the profile changed (the header shows the name). Provided by the app. */
    announceProfile: (_, _p: { profile: Profile }) => {},
    /** A toast: the name is saved. Provided by the app. */
    notifyNameSaved: () => {},
    /** A toast: the consent is saved (on or off). Provided by the app. */
    notifyMarketingSaved: (_, _p: { allowed: boolean }) => {},
    /** A toast: the consent could not be saved. Provided by the app. */
    notifyMarketingFailed: () => {},
    /** Remember that the person does not want to give a name now. Provided by the app. */
    rememberSkip: () => {},
  },
  guards: {
    isValidName: ({ event }) => event.type === 'user.saveName' && nameProblem(event.name) === null,
    isChange: ({ context, event }) => event.type === 'user.setMarketing' && context.profile !== null && context.profile.allowMarketing !== event.allowed,
  },
}).createMachine({
  id: 'profile',
  description: 'Ens egen profil: hämtas (eller är känd från inloggningen), ett namn sparas, samtycket till marknadsföring slås på eller av.',
  context: ({ input }) => ({ userId: input.userId, profile: null, pendingName: '', previousMarketing: false, error: null }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Profilen hämtas från servern.',
      tags: ['loading'],
      entry: 'clearError',
      invoke: {
        id: 'loadProfile',
        src: 'loadProfile',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'ready', actions: { type: 'storeProfile', params: ({ event }) => ({ profile: event.output }) }, description: 'Profilen kom.' },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: event.error as Failure }) }, description: 'Den kunde inte hämtas; skälet visas.' },
      },
    },
    failed: {
      description: 'Profilen kunde inte hämtas; sidan erbjuder att försöka igen.',
      tags: ['failed'],
      on: {
        'user.retry': { target: 'loading', description: 'Försök hämta igen.' },
      },
    },
    ready: {
      description: 'Profilen visas och kan ändras.',
      tags: ['ready'],
      initial: 'idle',
      states: {
        idle: {
          description: 'Väntar på att personen sparar ett namn eller slår om samtyckesreglaget.',
          on: {
            'user.saveName': [
              { guard: 'isValidName', target: 'savingName', actions: 'assignPendingName', description: 'Ett namn som servern godtar: spara det.' },
              { actions: 'assignNameProblem', description: 'Tomt, för långt eller med otillåtna tecken: sägs under fältet, inget skickas.' },
            ],
            'user.setMarketing': {
              guard: 'isChange',
              target: 'savingMarketing',
              actions: 'assignMarketing',
              description: 'Reglaget slogs om: visas direkt, sparas direkt.',
            },
            'user.skip': { target: '#profile.skipped', actions: 'rememberSkip', description: 'Inte nu: frågan försvinner och kommer inte tillbaka.' },
          },
        },
        savingName: {
          description: 'Namnet sparas.',
          tags: ['busy', 'busy:name'],
          invoke: {
            id: 'saveName',
            src: 'saveName',
            input: ({ context }) => ({ userId: context.userId, name: context.pendingName }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'storeProfile', params: ({ event }) => ({ profile: event.output }) },
                { type: 'announceProfile', params: ({ event }) => ({ profile: event.output }) },
                'notifyNameSaved',
              ],
              description: 'Sparat: inloggningen får veta namnet, en avisering säger det.',
            },
            onError: {
              target: 'idle',
              actions: { type: 'assignNameError', params: ({ event }) => ({ error: event.error as Failure }) },
              description: 'Inte sparat: skälet visas under fältet.',
            },
          },
        },
        savingMarketing: {
          description: 'Samtycket sparas.',
          tags: ['busy', 'busy:marketing'],
          invoke: {
            id: 'saveMarketing',
            src: 'saveMarketing',
            input: ({ context }) => ({ allowed: context.profile?.allowMarketing ?? false }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'storeProfile', params: ({ event }) => ({ profile: event.output }) },
                { type: 'announceProfile', params: ({ event }) => ({ profile: event.output }) },
                { type: 'notifyMarketingSaved', params: ({ event }) => ({ allowed: event.output.allowMarketing }) },
              ],
              description: 'Sparat: en avisering säger det.',
            },
            onError: {
              target: 'idle',
              actions: [{ type: 'restoreMarketing', params: ({ event }) => ({ error: event.error as Failure }) }, 'notifyMarketingFailed'],
              description: 'Inte sparat: reglaget går tillbaka, och skälet visas.',
            },
          },
        },
      },
    },
    skipped: {
      description: 'Personen valde att inte ange något namn nu.',
      tags: ['skipped'],
      type: 'final',
    },
  },
});
