import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Seller } from '../../../contract/seller.ts';
import { ACCESSIBILITY_PATH, PRIVACY_PATH, TERMS_PATH, useSeller } from '../../components/seller.ts';
import { button, errorBox, errorBoxTitle } from '../../components/ui.css.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { formatDate } from '../../format/dates.ts';
import { LAST_UPDATED, documents, type DocumentId } from './documents.ts';
import * as css from './legal.css.ts';

/** `{seller}`, `{orgNumber}` as text and `{email}` as a mail link, in one paragraph. */
function fill(text: string, seller: Seller): ReactNode {
  return text.split(/(\{seller\}|\{orgNumber\}|\{email\})/).map((part, i) => {
    if (part === '{seller}') return <Fragment key={i}>{seller.name}</Fragment>;
    if (part === '{orgNumber}') return <Fragment key={i}>{seller.orgNumber}</Fragment>;
    if (part === '{email}')
      return (
        <a key={i} className={css.link} href={`mailto:${seller.email}`}>
          {seller.email}
        </a>
      );
    return <Fragment key={i}>{part}</Fragment>;
  });
}

/** Each document's page and the label of a link to it (the "see also" links under the others). */
const PAGES: Record<DocumentId, { to: string; label: 'readTerms' | 'readPrivacy' | 'readAccessibility' }> = {
  terms: { to: TERMS_PATH, label: 'readTerms' },
  privacy: { to: PRIVACY_PATH, label: 'readPrivacy' },
  accessibility: { to: ACCESSIBILITY_PATH, label: 'readAccessibility' },
};

/**
 * The terms (/villkor), the privacy policy (/integritet) or the accessibility statement
 * (/tillganglighet), in the language shown, naming the seller of the settings.
 */
function LegalPage({ id }: { id: DocumentId }) {
  const { t, i18n } = useTranslation('legal');
  const language = i18n.language === 'en' ? 'en' : 'sv';
  const doc = documents[id][language];
  const seller = useSeller();
  const data = seller.data;
  usePageTitle(doc.title);
  const others = (Object.keys(PAGES) as DocumentId[]).filter((other) => other !== id).map((other) => PAGES[other]);

  return (
    <article className={css.page} aria-labelledby="page-title">
      <h1 id="page-title" className={css.title}>
        {doc.title}
      </h1>
      <p className={css.updated}>{t('updated', { date: formatDate(LAST_UPDATED, language) })}</p>
      {seller.status === 'loading' && (
        <p role="status" className={css.status}>
          {t('loading')}
        </p>
      )}
      {(seller.status === 'failed' || seller.status === 'notFound') && (
        <div role="alert" className={errorBox}>
          <h2 className={errorBoxTitle}>{t('failedTitle')}</h2>
          {seller.error?.message && <p>{seller.error.message}</p>}
          {seller.status === 'failed' && (
            <button type="button" className={button} onClick={seller.retry}>
              {t('retry')}
            </button>
          )}
        </div>
      )}
      {data && (
        <>
          <p className={css.intro}>{fill(doc.intro, data)}</p>
          <nav className={css.contents} aria-labelledby="legal-contents">
            <h2 id="legal-contents" className={css.contentsTitle}>
              {t('contents')}
            </h2>
            <ol className={css.contentsList}>
              {doc.sections.map((s) => (
                <li key={s.id}>
                  <a className={css.link} href={`#${s.id}`}>
                    {s.heading}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          {doc.sections.map((s) => (
            <section key={s.id} id={s.id} className={css.section} aria-labelledby={`${s.id}-heading`}>
              <h2 id={`${s.id}-heading`} className={css.heading}>
                {s.heading}
              </h2>
              {s.paragraphs.map((p, i) => (
                <p key={i} className={css.text}>
                  {fill(p, data)}
                </p>
              ))}
              {s.list && (
                <ul className={css.list}>
                  {s.list.map((item, i) => (
                    <li key={i}>{fill(item, data)}</li>
                  ))}
                </ul>
              )}
            </section>
          ))}
          <p className={css.text}>
            {t('seeAlso')}:{' '}
            {others.map((other, i) => (
              <Fragment key={other.to}>
                {i > 0 && ' · '}
                <Link className={css.link} to={other.to}>
                  {t(other.label)}
                </Link>
              </Fragment>
            ))}
          </p>
        </>
      )}
    </article>
  );
}

/** /villkor: köpvillkor. */
export function TermsPage() {
  return <LegalPage id="terms" />;
}

/** /integritet: integritetspolicy. */
export function PrivacyPage() {
  return <LegalPage id="privacy" />;
}

/** /tillganglighet: tillgänglighetsredogörelse. */
export function AccessibilityPage() {
  return <LegalPage id="accessibility" />;
}
