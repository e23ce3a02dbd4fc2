import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { useBootPageHandOver } from '../../components/bootPage.ts';
import { button } from '../../components/ui.css.ts';
import { useSignIn } from '../../components/session.ts';
import type { AuthError } from '../../../machines/auth.ts';
import * as css from './login.css.ts';

/** The server's text when it sent one, else ours for the code. */
function useErrorText() {
  const { t } = useTranslation('auth');
  return (error: AuthError) => error.message || t(`errors.${error.code}`, { defaultValue: t('errors.UNKNOWN') });
}

/** Lets a supporting browser fill in the code from the SMS's "@host #code" line (WebOTP). */
function useWebOtp(active: boolean, onCode: (code: string) => void) {
  const latest = useRef(onCode);
  latest.current = onCode;
  useEffect(() => {
    if (!active || typeof window === 'undefined' || !('OTPCredential' in window)) return;
    const abort = new AbortController();
    navigator.credentials
      .get({ otp: { transport: ['sms'] }, signal: abort.signal } as CredentialRequestOptions)
      .then((cred) => {
        const code = (cred as unknown as { code?: string } | null)?.code;
        if (code) latest.current(code);
      })
      .catch(() => {});
    return () => abort.abort();
  }, [active]);
}

/**
 * /auth/jwt/login: sign in with a mobile number and a code by SMS. The flow lives in the auth
 * machine; this page renders its state and sends the person's events.
 */
export function LoginPage() {
  const { t } = useTranslation('auth');
  usePageTitle(t('login.title'));
  const signIn = useSignIn();
  const errorText = useErrorText();
  const ids = useId();
  const [number, setNumber] = useState(signIn.mobileNumber);
  const [code, setCode] = useState('');
  // The server paints this card from the HTML first (decision 094); it goes once this one is in place.
  const boot = useBootPageHandOver<HTMLElement>();

  useWebOtp(signIn.step === 'code', (otp) => {
    setCode(otp);
    signIn.submitCode(otp);
  });

  const numberError = signIn.error?.field === 'mobileNumber' ? signIn.error : null;
  const codeError = signIn.error?.field === 'code' ? signIn.error : null;

  // A second submit while a request runs is the machine's to ignore (its busy states take no submit).
  const submitNumber = (e: FormEvent) => {
    e.preventDefault();
    signIn.submitNumber(number);
  };
  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    signIn.submitCode(code);
  };

  return (
    <main id="main" className={css.page} ref={boot} data-boot-page="login">
      <section className={css.card} aria-labelledby={`${ids}-title`}>
        <Link to="/" className={css.home}>
          Greetie
        </Link>
        <h1 id={`${ids}-title`} className={css.title}>
          {t('login.title')}
        </h1>

        {signIn.step === 'number' && (
          <form className={css.form} onSubmit={submitNumber} noValidate>
            <p className={css.text}>{t('login.intro')}</p>
            <label htmlFor={`${ids}-number`} className={css.label}>
              {t('login.mobileNumber')}
            </label>
            <input
              id={`${ids}-number`}
              name="mobileNumber"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              className={css.input}
              value={number}
              onChange={(e) => setNumber(e.target.value)}
              aria-invalid={numberError ? true : undefined}
              aria-describedby={numberError ? `${ids}-number-error` : `${ids}-number-hint`}
              readOnly={signIn.busy !== null}
            />
            <p id={`${ids}-number-hint`} className={css.hint}>
              {t('login.mobileNumberHint')}
            </p>
            {numberError && (
              <p id={`${ids}-number-error`} role="alert" className={css.error}>
                {errorText(numberError)}
              </p>
            )}
            <button
              type="submit"
              className={`${button} ${signIn.busy ? css.busy : ''}`}
              disabled={signIn.busy !== null}
              aria-busy={signIn.busy === 'requestingCode' || undefined}
            >
              {signIn.busy === 'requestingCode' ? t('login.sendingCode') : t('login.sendCode')}
            </button>
          </form>
        )}

        {signIn.step === 'code' && (
          <form className={css.form} onSubmit={submitCode} noValidate>
            <p className={css.text} aria-live="polite">
              {t('login.codeSentTo', { number: signIn.mobileNumber })}
            </p>
            <label htmlFor={`${ids}-code`} className={css.label}>
              {t('login.code')}
            </label>
            <input
              id={`${ids}-code`}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={6}
              // The field appears because the person just asked for a code: it is where they go next.
              autoFocus
              className={css.codeInput}
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
              aria-invalid={codeError ? true : undefined}
              aria-describedby={codeError ? `${ids}-code-error` : `${ids}-code-hint`}
              readOnly={signIn.busy !== null}
            />
            <p id={`${ids}-code-hint`} className={css.hint}>
              {t('login.codeHint')}
            </p>
            {codeError && (
              <p id={`${ids}-code-error`} role="alert" className={css.error}>
                {errorText(codeError)}
              </p>
            )}
            <button
              type="submit"
              className={`${button} ${signIn.busy ? css.busy : ''}`}
              disabled={signIn.busy !== null}
              aria-busy={signIn.busy === 'loggingIn' || undefined}
            >
              {signIn.busy === 'loggingIn' ? t('login.loggingIn') : t('login.logIn')}
            </button>
            <div className={css.row}>
              {signIn.canResend || signIn.busy === 'resendingCode' ? (
                <button
                  type="button"
                  className={css.linkButton}
                  onClick={signIn.resendCode}
                  disabled={signIn.busy !== null}
                  aria-busy={signIn.busy === 'resendingCode' || undefined}
                >
                  {signIn.busy === 'resendingCode' ? t('login.resending') : t('login.resend')}
                </button>
              ) : (
                <p className={css.hint}>{t('login.resendIn', { seconds: signIn.resendIn })}</p>
              )}
              <button type="button" className={css.linkButton} onClick={signIn.changeNumber} disabled={signIn.busy !== null}>
                {t('login.changeNumber')}
              </button>
            </div>
          </form>
        )}

        {signIn.step === 'none' && (
          <p className={css.text} role="status">
            {t('common:loading')}
          </p>
        )}
      </section>
    </main>
  );
}
