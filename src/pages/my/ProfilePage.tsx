import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { useSessionUser } from '../../components/session.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button } from '../../components/ui.css.ts';
import { formatMobileNumber } from '../../format/phone.ts';
import type { Profile, ProfileError } from '../../../machines/profile.ts';
import { NAME_PROBLEMS } from '../../../contract/name.ts';
import { MyHeading, ProfileFailed, ProfileLoading } from './MyNav.tsx';
import { useProfile } from './useProfile.ts';
import * as css from './my.css.ts';

/** The text under the name field for a refused name: ours for the known codes, else the server's. */
export function useNameErrorText(error: ProfileError | null): string | null {
  const { t } = useTranslation('common');
  if (!error || error.field !== 'name') return null;
  const known: readonly string[] = NAME_PROBLEMS;
  if (known.includes(error.code)) return t(`nameError.${error.code}`);
  return error.message || t('nameError.UNKNOWN');
}

/**
 * /my/profile: the name (saved with 'Spara'), the number the account is tied to, and shortcuts to
 * 'Mina greeties' and 'Mina gåvor'.
 */
export function ProfilePage() {
  const { t } = useTranslation('my');
  usePageTitle(t('profile.title'));
  const user = useSessionUser();
  return (
    <div className={css.page}>
      <MyHeading title={t('profile.title')} />
      {user && <ProfileSections userId={user.id} />}
    </div>
  );
}

function ProfileSections({ userId }: { userId: string }) {
  const { t } = useTranslation('my');
  const p = useProfile({ userId });
  if (p.status === 'failed') return <ProfileFailed message={p.error?.message} retry={p.retry} />;
  if (p.status !== 'ready' || !p.profile) return <ProfileLoading />;
  return (
    <>
      <NameForm profile={p.profile} error={p.error} saving={p.savingName} save={p.saveName} />
      <section className={css.card} aria-labelledby="number-title">
        <h2 id="number-title" className={css.cardTitle}>
          {t('profile.numberTitle')}
        </h2>
        <p className={css.text}>
          <Trans
            t={t}
            i18nKey="profile.numberText"
            values={{ number: formatMobileNumber(p.profile.mobileNumber) }}
            components={{ number: <span className={css.number} /> }}
          />
        </p>
      </section>
      <section className={css.card} aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title" className={css.cardTitle}>
          {t('profile.shortcutsTitle')}
        </h2>
        <ul className={css.shortcuts}>
          <li>
            <Link to="/greetie" className={css.shortcut}>
              <span className={css.shortcutTitle}>{t('profile.greeties')}</span>
              <span>{t('profile.greetiesText')}</span>
            </Link>
          </li>
          <li>
            <Link to="/voucher" className={css.shortcut}>
              <span className={css.shortcutTitle}>{t('profile.vouchers')}</span>
              <span>{t('profile.vouchersText')}</span>
            </Link>
          </li>
        </ul>
      </section>
    </>
  );
}

function NameForm({ profile, error, saving, save }: { profile: Profile; error: ProfileError | null; saving: boolean; save: (name: string) => void }) {
  const { t } = useTranslation('my');
  const [name, setName] = useState(profile.name ?? '');
  const errorText = useNameErrorText(error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save(name);
  };
  return (
    <form className={css.card} onSubmit={submit} noValidate>
      <div className={css.formRow}>
        <div className={css.field}>
          <label htmlFor="profile-name" className={css.label}>
            {t('profile.nameLabel')}
          </label>
          <input
            id="profile-name"
            name="name"
            className={css.input}
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? 'profile-name-hint profile-name-error' : 'profile-name-hint'}
          />
        </div>
        <button type="submit" className={button} aria-disabled={saving || undefined} disabled={saving}>
          {saving ? t('profile.saving') : t('profile.save')}
        </button>
      </div>
      <p id="profile-name-hint" className={css.hint}>
        {t('profile.nameHint')}
      </p>
      {errorText && (
        <p id="profile-name-error" className={css.error} role="alert">
          {errorText}
        </p>
      )}
    </form>
  );
}
