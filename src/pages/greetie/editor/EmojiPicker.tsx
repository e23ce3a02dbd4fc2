import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './editor.css.ts';
import { EMOJI_GROUPS, loadEmoji, searchEmoji, type EmojiEntry, type EmojiGroupId } from './emojiData.ts';

type Loaded = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; list: EmojiEntry[] };

/** Emoji by category or by search (in the shown language); picking one calls `onPick`. */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled: boolean }) {
  const { t, i18n } = useTranslation('editor');
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [group, setGroup] = useState<EmojiGroupId>(0);
  const [query, setQuery] = useState('');
  const searchId = useId();

  useEffect(() => {
    let cancelled = false;
    loadEmoji(i18n.language).then(
      (list) => !cancelled && setLoaded({ status: 'ready', list }),
      () => !cancelled && setLoaded({ status: 'failed' }),
    );
    return () => {
      cancelled = true;
    };
  }, [i18n.language, attempt]);

  const shown = useMemo(() => {
    if (loaded.status !== 'ready') return [];
    return query.trim() ? searchEmoji(loaded.list, query) : loaded.list.filter((e) => e.group === group);
  }, [loaded, query, group]);

  if (loaded.status === 'loading') return <p role="status">{t('emoji.loading')}</p>;
  if (loaded.status === 'failed') {
    return (
      <div role="alert">
        <p className={css.error}>{t('emoji.failed')}</p>
        <button
          type="button"
          className={css.toolButton}
          onClick={() => {
            setLoaded({ status: 'loading' });
            setAttempt((a) => a + 1);
          }}
        >
          {t('emoji.retry')}
        </button>
      </div>
    );
  }

  return (
    <>
      <div className={css.field}>
        <label htmlFor={searchId}>{t('emoji.search')}</label>
        <input id={searchId} className={css.input} type="search" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" />
      </div>
      {!query.trim() && (
        <div className={css.tabs} role="group" aria-label={t('emoji.groupsLabel')}>
          {EMOJI_GROUPS.map((g) => (
            <button
              key={g.id}
              type="button"
              className={css.tab}
              aria-pressed={group === g.id}
              aria-label={t(`emoji.groups.${g.id}`)}
              title={t(`emoji.groups.${g.id}`)}
              onClick={() => setGroup(g.id)}
            >
              <span aria-hidden="true">{g.icon}</span>
            </button>
          ))}
        </div>
      )}
      {shown.length === 0 ? (
        <p className={css.hint}>{t('emoji.noResults')}</p>
      ) : (
        <ul className={css.emojiGrid} aria-label={query.trim() ? t('emoji.results') : t(`emoji.groups.${group}`)}>
          {shown.map((e) => (
            <li key={e.emoji}>
              <button type="button" className={css.emojiTile} aria-label={e.label} title={e.label} disabled={disabled} onClick={() => onPick(e.emoji)}>
                {e.emoji}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
