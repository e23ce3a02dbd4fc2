import { useState } from 'react';
import { Link } from 'react-router-dom';
import * as Dialog from '@radix-ui/react-dialog';
import { useTranslation } from 'react-i18next';
import type { Greetie } from '../../../contract/greetie.ts';
import { useLoader } from '../../components/useLoader.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { useSessionUser } from '../../components/session.ts';
import { toFailure } from '../../api/errors.ts';
import { deleteGreetie } from '../../api/greetie.ts';
import { button, buttonSecondary } from '../../components/ui.css.ts';
import { formatDate, formatDateTime } from '../../format/dates.ts';
import { formatKr } from '../../format/money.ts';
import { greetieListLoader } from './loaders.ts';
import { statusLabelOf } from './status.ts';
import * as css from './greetie.css.ts';

/** /greetie and /greetie/list: the greeties the person sent and received, newest first, with status. */
export function GreetieListPage() {
  const { t, i18n } = useTranslation('greetie');
  usePageTitle(t('list.title'));
  const me = useSessionUser()?.id ?? null;
  const { status, data, error, retry } = useLoader(greetieListLoader, { cursor: null });
  // Drafts deleted here leave the list at once (the server has forgotten them).
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(() => new Set());
  const items = (data?.items ?? []).filter((g) => !deleted.has(g.id));
  const onDeleted = (id: string) => setDeleted((d) => new Set([...d, id]));
  const sent = items.filter((g) => g.sender.id === me);
  const received = items.filter((g) => g.sender.id !== me);

  return (
    <section className={css.widePage} aria-labelledby="page-title">
      <h1 id="page-title" className={css.title}>
        {t('list.title')}
      </h1>
      <p>
        <Link className={button} to="/greetie/new">
          {t('list.new')}
        </Link>
      </p>
      {status === 'loading' && (
        <div aria-busy="true">
          <p role="status">{t('list.loading')}</p>
          <div className={css.skeleton} />
        </div>
      )}
      {(status === 'failed' || status === 'notFound') && (
        <div role="alert" className={css.alert}>
          <h2 className={css.alertTitle}>{t('list.failed')}</h2>
          <p>{error?.message}</p>
          <button type="button" className={button} onClick={retry}>
            {t('new.retry')}
          </button>
        </div>
      )}
      {status === 'loaded' && (
        <>
          <Group
            title={t('list.sent')}
            empty={t('list.noneSent')}
            items={sent}
            language={i18n.language}
            who={(g) => g.recipient?.name ?? g.recipient?.mobileNumber ?? (g.status === 'draft' ? t('status.draft') : t('list.noRecipient'))}
            onDeleted={onDeleted}
          />
          <Group title={t('list.received')} empty={t('list.noneReceived')} items={received} language={i18n.language} who={(g) => (g.sender.id === null ? t('list.formerUser') : (g.sender.name ?? t('list.someone')))} />
        </>
      )}
    </section>
  );
}

function Group({
  title,
  empty,
  items,
  language,
  who,
  onDeleted,
}: {
  title: string;
  empty: string;
  items: Greetie[];
  language: string;
  who: (g: Greetie) => string;
  onDeleted?: (id: string) => void;
}) {
  const { t } = useTranslation('greetie');
  return (
    <section>
      <h2>{title}</h2>
      {items.length === 0 ? (
        <p className={css.notice}>{empty}</p>
      ) : (
        <ul className={css.cards}>
          {items.map((g) => (
            <li key={g.id} className={g.status === 'draft' && onDeleted ? css.draftRow : undefined}>
              <Link className={css.card} to={g.status === 'draft' ? `/greetie/new?draft=${g.id}` : `/greetie/details/${g.id}`}>
                <Thumb media={g.media} />
                <span>
                  <span className={css.rowTitle}>{who(g)}</span>
                  <span className={css.rowMeta} style={{ display: 'block' }}>
                    <span className={css.status}>{t(`status.${statusLabelOf(g)}`)}</span> ·{' '}
                    {/* A draft is told apart by when it was last changed; the rest by when it was made. */}
                    {g.status === 'draft' ? t('list.edited', { when: formatDateTime(g.updatedAt, language) }) : formatDate(g.createdAt, language)}
                    {g.total > 0 && ` · ${formatKr(g.total)}`}
                  </span>
                  {g.status === 'draft' && g.message.trim() && <span className={css.rowExcerpt}>{g.message.trim()}</span>}
                </span>
              </Link>
              {g.status === 'draft' && onDeleted && (
                <DeleteDraft greetie={g} label={t('list.deleteDraftLabel', { name: who(g), when: formatDateTime(g.updatedAt, language) })} onDeleted={onDeleted} />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * 'Ta bort' beside a draft, confirmed in a dialog (Radix): DELETE /greetie/{id}, then the row goes.
 * A refusal (it was sent meanwhile: 409) is said in the dialog, and the row stays.
 */
function DeleteDraft({ greetie, label, onDeleted }: { greetie: Greetie; label: string; onDeleted: (id: string) => void }) {
  const { t } = useTranslation('greetie');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await deleteGreetie(greetie.id);
      setOpen(false);
      onDeleted(greetie.id);
    } catch (e) {
      setFailure(toFailure(e).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setFailure(null);
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={`${buttonSecondary} ${css.draftDelete}`} aria-label={label}>
          {t('details.delete')}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={css.dialogOverlay} />
        <Dialog.Content className={css.dialog} role="alertdialog">
          <Dialog.Title className={css.dialogTitle}>{t('list.deleteDraftTitle')}</Dialog.Title>
          <Dialog.Description>{t('list.deleteDraftText')}</Dialog.Description>
          {failure && (
            <p role="alert" className={css.fieldError}>
              {failure}
            </p>
          )}
          <div className={css.actions}>
            <Dialog.Close asChild>
              <button type="button" className={buttonSecondary}>
                {t('details.keep')}
              </button>
            </Dialog.Close>
            <button type="button" className={`${button} ${css.danger}`} disabled={busy} aria-busy={busy || undefined} onClick={() => void confirm()}>
              {t('list.deleteDraftConfirm')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The greetie's picture in the list: the photo's small copy (a video's poster) with the content
 * over it — the overlay keeps its transparency, so alone it would be text on nothing — or, with no
 * picture yet, a gift.
 */
function Thumb({ media }: { media: { thumbnailUrl: string | null; overlayUrl: string | null } | null }) {
  if (!media?.thumbnailUrl && !media?.overlayUrl) {
    return (
      <span className={css.thumbEmpty} aria-hidden="true" data-testid="greetie-thumb-empty">
        <GiftIcon />
      </span>
    );
  }
  return (
    <span className={css.thumbStack} aria-hidden="true" data-testid="greetie-thumb">
      {media.thumbnailUrl && <img className={css.thumbLayer} src={media.thumbnailUrl} alt="" />}
      {media.overlayUrl && <img className={css.thumbLayer} src={media.overlayUrl} alt="" />}
    </span>
  );
}

/** A small gift: the list's mark for a greetie that has no picture to show. */
function GiftIcon() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <rect x="3" y="8" width="18" height="4" rx="1" />
      <path d="M12 8v13M19 12v7a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2v-7" />
      <path d="M7.5 8a2.5 2.5 0 0 1 0-5C10 3 12 8 12 8s2-5 4.5-5a2.5 2.5 0 0 1 0 5" />
    </svg>
  );
}
