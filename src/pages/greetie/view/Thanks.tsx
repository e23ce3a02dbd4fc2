import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../../../contract/errors.ts';
import { THANKS_MAX_LENGTH, type GreetieThanks } from '../../../../contract/greetie.ts';
import type { GreetieView } from '../../../../machines/greetieView.ts';
import { THANKS_EMOJIS, type ThanksEmoji } from '../../../../machines/thanks.ts';
import { button, visuallyHidden } from '../../../components/ui.css.ts';
import { formatDateTime } from '../../../format/dates.ts';
import { useThanks, type ThanksCommands, type ThanksView } from './useThanks.ts';
import * as css from '../thanks.css.ts';

/** Each emoji's name for a screen reader (locales/<lang>/view.json thanks.emojiNames). */
const EMOJI_NAMES: Record<ThanksEmoji, string> = { '🎉': 'party', '❤️': 'heart', '😊': 'smile', '🙏': 'pray', '🥰': 'love', '🤗': 'hug' };
/** From this many characters left, the counter is read out as it changes. */
const ANNOUNCE_FROM = 50;

/**
 * The recipient's thank-you on the greetie they opened (machines/thanks.ts through useThanks):
 * once sent, what was sent; until then the form. Only the recipient thanks; everybody else sees
 * nothing here.
 */
export function Thanks({ view }: { view: GreetieView }) {
  if (view.role !== 'recipient') return null;
  if (view.thanks) return <ThanksSent thanks={view.thanks} senderName={view.senderName} />;
  return <ThanksFlow greetieId={view.id} senderName={view.senderName} />;
}

/** A thank-you already sent: what it said and when. */
function ThanksSent({ thanks, senderName, justSent = false }: { thanks: GreetieThanks; senderName: string | null; justSent?: boolean }) {
  const { t, i18n } = useTranslation('view');
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is gone: the focus goes to what took its place.
  useEffect(() => {
    if (justSent) heading.current?.focus();
  }, [justSent]);
  return (
    <section className={css.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className={css.title}>
        {t('thanks.yours')}
      </h2>
      {justSent && <p role="status">{senderName ? t('thanks.sent', { name: senderName }) : t('thanks.sentNoName')}</p>}
      <div className={css.note}>
        <p className={css.noteText}>
          {thanks.emoji && <span>{thanks.emoji} </span>}
          {thanks.message}
        </p>
        <p className={css.noteMeta}>{t('thanks.sentAt', { time: formatDateTime(thanks.createdAt, i18n.language) })}</p>
      </div>
    </section>
  );
}

function ThanksFlow({ greetieId, senderName }: { greetieId: string; senderName: string | null }) {
  const flow = useThanks(greetieId);
  if (flow.screen === 'sent' && flow.thanks) return <ThanksSent thanks={flow.thanks} senderName={senderName} justSent />;
  return <ThanksForm flow={flow} senderName={senderName} />;
}

function ThanksForm({ flow, senderName }: { flow: ThanksView & ThanksCommands; senderName: string | null }) {
  const { t } = useTranslation('view');
  const id = useId();
  const { screen, message, emoji, failure } = flow;
  const busy = screen === 'busy';
  const empty = screen === 'composing' && failure?.code === 'THANKS_MESSAGE_EMPTY';
  const left = THANKS_MAX_LENGTH - message.length;
  const refused = screen === 'refused';
  const alertRef = useRef<HTMLParagraphElement>(null);
  // Refused for good: the form is gone, the focus goes to why.
  useEffect(() => {
    if (refused) alertRef.current?.focus();
  }, [refused]);
  return (
    <section className={css.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={css.title}>
        {senderName ? t('thanks.title', { name: senderName }) : t('thanks.titleNoName')}
      </h2>
      {(screen === 'failed' || refused) && failure && (
        <p role="alert" ref={alertRef} tabIndex={-1} className={css.alert}>
          <FailureText failure={failure} />
          {screen === 'failed' && <> {t('thanks.kept')}</>}
        </p>
      )}
      {!refused && (
        <form
          className={css.form}
          noValidate
          aria-busy={busy || undefined}
          onSubmit={(e) => {
            e.preventDefault();
            flow.send();
          }}
        >
          <p className={css.noteMeta}>{t('thanks.lead')}</p>
          <fieldset className={css.emojis} disabled={busy}>
            <legend className={css.legend}>{t('thanks.emoji')}</legend>
            <label className={css.emojiChoice}>
              <input type="radio" className={css.emojiRadio} name={`${id}-emoji`} checked={emoji === null} onChange={() => flow.pickEmoji(null)} />
              {t('thanks.none')}
            </label>
            {THANKS_EMOJIS.map((e) => (
              <label key={e} className={css.emojiChoice}>
                <input type="radio" className={css.emojiRadio} name={`${id}-emoji`} value={e} checked={emoji === e} onChange={() => flow.pickEmoji(e)} />
                <span aria-hidden="true" className={css.emojiGlyph}>
                  {e}
                </span>
                <span className={visuallyHidden}>{t(`thanks.emojiNames.${EMOJI_NAMES[e]}`)}</span>
              </label>
            ))}
          </fieldset>
          <div className={css.field}>
            <label htmlFor={`${id}-message`} className={css.label}>
              {t('thanks.message')}
            </label>
            <textarea
              id={`${id}-message`}
              className={css.textarea}
              maxLength={THANKS_MAX_LENGTH}
              value={message}
              readOnly={busy}
              aria-invalid={empty || undefined}
              aria-describedby={`${id}-counter${empty ? ` ${id}-error` : ''}`}
              onChange={(e) => flow.write(e.currentTarget.value)}
            />
            <p id={`${id}-counter`} className={css.counter}>
              {t('thanks.counter', { count: message.length, max: THANKS_MAX_LENGTH })}
            </p>
            {/* Near the limit, what is left is read out as it changes. */}
            <p className={visuallyHidden} aria-live="polite">
              {left <= ANNOUNCE_FROM ? t('thanks.left', { count: left }) : ''}
            </p>
            {empty && (
              <p id={`${id}-error`} role="alert" className={css.error}>
                {t('thanks.failure.THANKS_MESSAGE_EMPTY')}
              </p>
            )}
          </div>
          <div>
            <button type="submit" className={button} disabled={busy}>
              {busy ? t('thanks.sending') : t('thanks.send')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

const WORDED = new Set(['THANKS_ALREADY_SENT', 'GREETIE_NOT_FOUND', 'THANKS_EMOJI_INVALID', 'THANKS_MESSAGE_EMPTY']);

/** A refusal worded by its code; another one as the server said it. */
function FailureText({ failure }: { failure: Failure }) {
  const { t } = useTranslation('view');
  if (WORDED.has(failure.code)) return <>{t(`thanks.failure.${failure.code}`)}</>;
  return <>{failure.message || t('thanks.failure.other')}</>;
}
