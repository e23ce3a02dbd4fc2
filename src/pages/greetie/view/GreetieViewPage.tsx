import { useEffect } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { GreetieView } from '../../../../machines/greetieView.ts';
import { useSeller } from '../../../components/seller.ts';
import { useSession } from '../../../components/session.ts';
import { useOpenGreetieVouchers } from '../../../components/vouchers.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { button, buttonSecondary } from '../../../components/ui.css.ts';
import { formatDateTime } from '../../../format/dates.ts';
import { useReducedMotion } from '../editor/motion.ts';
import { removeBootFrame } from './bootFrame.ts';
import { GiftReveal } from './GiftReveal.tsx';
import { GreetieStage } from './GreetieStage.tsx';
import { Thanks } from './Thanks.tsx';
import type { Viewer } from './load.ts';
import { useGreetieView } from './useGreetieView.ts';
import * as css from './view.css.ts';

/**
 * /greetie/view/{refId}: the greetie a recipient opens from the SMS (public), and
 * /greetie/view/{id}?byId=true: its sender or recipient, signed in (a visitor is asked to sign in
 * first). In the minimal layout: the corner menu and the greetie.
 */
export function GreetieViewPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const session = useSession();
  const byId = params.get('byId') === 'true';
  // The server's first frame (index.html's #boot-frame) never outlives the page.
  useEffect(() => removeBootFrame, []);
  // Who is looking decides what is read: wait until the session knows.
  if (session.status === 'loading') return null;
  const user = session.status === 'authenticated' ? session.user : null;
  const here = `${location.pathname}${location.search}`;
  if (byId && !user) return <Navigate to={`/auth/jwt/login?returnTo=${encodeURIComponent(here)}`} replace />;
  const viewer: Viewer | null = user ? { id: user.id, mobileNumber: user.mobileNumber } : null;
  // Another greetie, or someone else signing in or out here, starts a new view.
  return <View key={`${id}|${byId}|${viewer?.id ?? ''}`} id={id} byId={byId} viewer={viewer} returnTo={here} />;
}

function titleOf(t: (key: string, o?: Record<string, unknown>) => string, view: GreetieView | null): string {
  if (!view) return t('common:pages.greetieView.title');
  if (view.role === 'sender') return view.recipientName ? t('title.sent', { name: view.recipientName }) : t('title.sentNoName');
  return view.senderName ? t('title.from', { name: view.senderName }) : t('title.fromSomeone');
}

/**
 * Greetie's brand, who sent it, and how to tell a real Greetie SMS, for a recipient who is wary of
 * a text with a link: it comes from the sender "Greetie" and links only to this site's
 * own address; Greetie never asks for BankID, card details or a payment to open a greetie.
 */
export function TrustNote({ senderName }: { senderName: string | null }) {
  const { t } = useTranslation('view');
  const host = window.location.host;
  return (
    <aside className={css.trust} aria-label={t('trust.label')}>
      <p className={css.trustBrand}>
        <span className={css.wordmark}>Greetie</span>
        <span>{senderName ? t('trust.from', { name: senderName }) : t('trust.fromSomeone')}</span>
      </p>
      <p className={css.hint}>{t('trust.real', { host })}</p>
      <p className={css.hint}>{t('trust.never', { host })}</p>
    </aside>
  );
}

/**
 * A link that leads nowhere, for someone who may doubt the SMS it came in: Greetie's brand, what a
 * real Greetie SMS looks like, the way to the start page, and where to ask for help (the seller's
 * e-mail, once known).
 */
function NotFoundHelp() {
  const { t } = useTranslation('view');
  const seller = useSeller().data;
  return (
    <>
      <p className={css.trustBrand}>
        <span className={css.wordmark}>Greetie</span>
      </p>
      <p>{t('notFound.text')}</p>
      <p className={css.hint}>{t('trust.real', { host: window.location.host })}</p>
      {seller && (
        <p>
          {t('notFound.help')} <a href={`mailto:${seller.email}`}>{seller.email}</a>
        </p>
      )}
      <Link to="/" className={buttonSecondary}>
        {t('notFound.home')}
      </Link>
    </>
  );
}

/**
 * What to do next on an opened greetie: someone signed in with another number than the one it was
 * sent to signs in again with the right one (signed out first; the sign-in comes back here); its
 * recipient finds the gifts in Mina gåvor (the list); anyone but its sender can send one of their own.
 */
function NextSteps({ view, returnTo }: { view: GreetieView; returnTo: string }) {
  const { t } = useTranslation('view');
  const navigate = useNavigate();
  const { signOut } = useSession();
  const login = `/auth/jwt/login?returnTo=${encodeURIComponent(returnTo)}`;
  return (
    <div className={css.nextSteps}>
      {view.role === 'other' && (
        <div className={css.signIn}>
          <p className={css.hint}>{t('other.wrongNumber')}</p>
          <button
            type="button"
            className={button}
            onClick={() => {
              signOut();
              void navigate(login);
            }}
          >
            {t('other.switch')}
          </button>
        </div>
      )}
      {view.role === 'recipient' && view.gifts.length > 0 && (
        <Link to="/voucher" className={button}>
          {t('next.myGifts')}
        </Link>
      )}
      {view.role !== 'sender' && (
        <Link to="/greetie/new" className={buttonSecondary}>
          {t('next.sendOwn')}
        </Link>
      )}
    </div>
  );
}

function View({ id, byId, viewer, returnTo }: { id: string; byId: boolean; viewer: Viewer | null; returnTo: string }) {
  const { t, i18n } = useTranslation('view');
  const reducedMotion = useReducedMotion();
  const { screen, view, failure, retry } = useGreetieView({ key: id, byId, reducedMotion }, viewer);
  const title = titleOf(t, view);
  // The recipient's own vouchers load while the greetie plays, not once the gifts are revealed.
  useOpenGreetieVouchers(view?.role === 'recipient' ? view.id : null);
  // The document's title is the page's heading, whatever the state.
  const nothing = screen === 'notFound' || screen === 'error';
  usePageTitle(nothing ? t(`${screen}.title`) : title);
  // Nothing to show: the server's first frame, if it drew one, goes.
  useEffect(() => {
    if (nothing) removeBootFrame();
  }, [nothing]);

  if (screen === 'loading') {
    // No heading yet: whose greetie it is (or that there is none) is what the read tells.
    return (
      <section className={css.page} aria-busy="true" aria-label={title}>
        <p role="status">{t('loading')}</p>
        <div className={css.skeleton} />
      </section>
    );
  }
  if (screen === 'notFound' || !view) {
    const failed = screen === 'error';
    return (
      <section className={css.page} aria-labelledby="page-title">
        <div className={failed ? css.alert : css.box} role={failed ? 'alert' : undefined}>
          <h1 id="page-title" className={css.boxTitle}>
            {failed ? t('error.title') : t('notFound.title')}
          </h1>
          {failed ? (
            <>
              {failure?.message && <p>{failure.message}</p>}
              <button type="button" className={button} onClick={retry}>
                {t('error.retry')}
              </button>
            </>
          ) : (
            <NotFoundHelp />
          )}
        </div>
      </section>
    );
  }
  return (
    <article className={css.greetiePage} aria-labelledby="page-title">
      <h1 id="page-title" className={`${css.title} ${css.titleArea}`}>
        {title}
      </h1>
      <div className={css.stageArea}>
        <GreetieStage media={view.media} content={view.content} />
      </div>
      <div className={css.textArea}>
        {view.message && <p className={css.message}>{view.message}</p>}
        {view.role === 'sender' && (
          <p className={view.viewedAt ? css.seen : css.notSeen}>
            {view.viewedAt ? t('seen', { time: formatDateTime(view.viewedAt, i18n.language) }) : t('notSeen')}
          </p>
        )}
        {/* Before what the reveal adds, so the reveal adds below it and moves nothing on screen: after
            them, the note was pushed down 1.2 s after the first screen (CLS 0.077, decision 152). */}
        {view.role !== 'sender' && <TrustNote senderName={view.senderName} />}
        <div aria-live="polite">{screen === 'revealed' && <GiftReveal view={view} returnTo={returnTo} />}</div>
        {/* Once opened, its recipient can thank the sender (once). */}
        {screen === 'revealed' && <Thanks view={view} />}
        {screen === 'revealed' && <NextSteps view={view} returnTo={returnTo} />}
      </div>
    </article>
  );
}
