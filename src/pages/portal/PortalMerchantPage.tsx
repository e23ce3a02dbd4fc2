import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { PortalMerchant } from '../../../contract/portal.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { useLoader } from '../../components/useLoader.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { button } from '../../components/ui.css.ts';
import { CodeRotation } from './CodeRotation.tsx';
import { Redemptions } from './Redemptions.tsx';
import { Summary } from './Summary.tsx';
import { portalMerchantsLoader } from './portal.ts';
import * as css from './portal.css.ts';

/**
 * /portal/{merchantId}: one merchant's page for the people who work there. The merchant's name and
 * the person's role; today's and this month's redeemed, what is outstanding and what expired;
 * 'Skanna kund' (till mode); the redemptions. The owner also gets 'Ladda ner (CSV)' and 'Byt
 * handlarkod'. A merchant the person does not work for is "not found", never a hint it exists.
 */
export function PortalMerchantPage() {
  const { merchantId = '' } = useParams();
  return <PortalMerchantView key={merchantId} merchantId={merchantId} />;
}

function PortalMerchantView({ merchantId }: { merchantId: string }) {
  const { t } = useTranslation('portal');
  const { status, data, error, retry } = useLoader(portalMerchantsLoader, undefined);
  const merchant = data?.find((m) => m.id.toLowerCase() === merchantId.toLowerCase()) ?? null;
  const missing = status === 'notFound' || (status === 'loaded' && !merchant);
  usePageTitle(merchant ? merchant.name : missing ? t('merchant.notFoundTitle') : t('index.title'));

  if (missing) {
    return (
      <section className={css.page} aria-labelledby="page-title">
        <h1 id="page-title" className={css.title} tabIndex={-1}>
          {t('merchant.notFoundTitle')}
        </h1>
        <p className={css.lead}>{t('merchant.notFoundText')}</p>
        <Link to="/portal" className={button}>
          {t('merchant.back')}
        </Link>
      </section>
    );
  }
  if (status === 'failed') {
    return (
      <section className={css.page} aria-labelledby="page-title">
        <h1 id="page-title" className={css.title} tabIndex={-1}>
          {t('index.title')}
        </h1>
        <LoadFailed title={t('index.errorTitle')} message={error?.message} retry={retry} />
      </section>
    );
  }
  if (!merchant) {
    return (
      <section className={css.page} aria-busy="true" aria-labelledby="page-title">
        <h1 id="page-title" className={css.title} tabIndex={-1}>
          {t('index.title')}
        </h1>
        <p role="status" className={css.status}>
          {t('index.loading')}
        </p>
      </section>
    );
  }
  return <MerchantPortal merchant={merchant} />;
}

function MerchantPortal({ merchant }: { merchant: PortalMerchant }) {
  const { t } = useTranslation('portal');
  const owner = merchant.role === 'owner';
  return (
    <section className={css.page} aria-labelledby="page-title">
      <h1 id="page-title" className={css.title} tabIndex={-1}>
        {merchant.name}
      </h1>
      <p className={css.lead} data-testid="portal-role">
        {t('merchant.youAre', { role: t(`role.${merchant.role}`).toLocaleLowerCase() })}
      </p>
      <div className={css.actions}>
        <Link to={`/portal/${merchant.id}/kassa`} className={button} aria-describedby="till-hint">
          {t('merchant.till')}
        </Link>
      </div>
      <p id="till-hint" className={css.muted}>
        {t('merchant.tillHint')}
      </p>
      <Summary merchantId={merchant.id} />
      <Redemptions merchant={merchant} />
      {owner && <CodeRotation merchantId={merchant.id} />}
    </section>
  );
}
