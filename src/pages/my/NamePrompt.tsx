import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../components/session.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { useNameErrorText } from './ProfilePage.tsx';
import { namePromptSkipped } from './profile.ts';
import { useProfile } from './useProfile.ts';
import * as css from './my.css.ts';

/**
 * After the first sign-in, a person with no name yet is asked for one, below the header: it blocks
 * nothing and covers nothing, and 'Inte nu' puts it away for good (in this browser). Once a name is
 * saved the session has it, the header shows it, and the prompt is gone (the header stops
 * rendering it).
 */
export function NamePrompt() {
  const user = useSessionUser();
  if (!user || user.name !== null || namePromptSkipped(user.id)) return null;
  return <Prompt key={user.id} user={user} />;
}

function Prompt({ user }: { user: { id: string } }) {
  const { t } = useTranslation('my');
  // Loaded first: the prompt asks only when the server, too, has no name (and says nothing when it cannot tell).
  const p = useProfile({ userId: user.id });
  const [name, setName] = useState('');
  const errorText = useNameErrorText(p.error);
  if (p.status !== 'ready' || !p.profile || p.profile.name !== null) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    p.saveName(name);
  };
  return (
    <section className={css.prompt} aria-labelledby="name-prompt-title">
      <h2 id="name-prompt-title" className={css.promptTitle}>
        {t('prompt.title')}
      </h2>
      <p className={css.text}>{t('prompt.text')}</p>
      <form className={css.field} onSubmit={submit} noValidate>
        <label htmlFor="name-prompt-name" className={css.label}>
          {t('prompt.label')}
        </label>
        <input
          id="name-prompt-name"
          className={css.input}
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={errorText ? true : undefined}
          aria-describedby={errorText ? 'name-prompt-error' : undefined}
        />
        {errorText && (
          <p id="name-prompt-error" className={css.error} role="alert">
            {errorText}
          </p>
        )}
        <div className={css.promptActions}>
          <button type="submit" className={button} disabled={p.savingName}>
            {p.savingName ? t('profile.saving') : t('prompt.save')}
          </button>
          <button type="button" className={buttonSecondary} onClick={p.skip} disabled={p.savingName}>
            {t('prompt.skip')}
          </button>
        </div>
      </form>
    </section>
  );
}
