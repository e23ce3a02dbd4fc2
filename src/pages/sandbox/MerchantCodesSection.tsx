import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useLoader } from '../../components/useLoader.ts';
import { button } from '../../components/ui.css.ts';
import { sandboxMerchantsLoader } from './loaders.ts';
import * as css from './sandbox.css.ts';

/**
 * The /sandbox page's table of demo merchant codes (GET /api/sandbox/merchants): what a person
 * types at the pretend till to redeem a demo gift.
 */
export function MerchantCodesSection() {
  const { t } = useTranslation('merchant');
  const { status, data: merchants, error, retry } = useLoader(sandboxMerchantsLoader, undefined);

  return (
    <section aria-labelledby="sandbox-merchant-codes">
      <h2 id="sandbox-merchant-codes">{t('sandbox.title')}</h2>
      <p>{t('sandbox.lead')}</p>
      {status === 'loading' && <p role="status">{t('sandbox.loading')}</p>}
      {/* 404: this server has no demo merchant list (nothing went wrong, so no alert). */}
      {status === 'notFound' && <p>{t('sandbox.unavailable')}</p>}
      {status === 'failed' && (
        <div role="alert" className={css.alert}>
          <p className={css.alertTitle}>{t('sandbox.errorTitle')}</p>
          <p>{error?.message}</p>
          <button type="button" className={button} onClick={retry}>
            {t('sandbox.retry')}
          </button>
        </div>
      )}
      {status === 'loaded' && merchants && merchants.length === 0 && <p>{t('sandbox.empty')}</p>}
      {status === 'loaded' && merchants && merchants.length > 0 && (
        <table className={css.table}>
          <thead>
            <tr>
              <th scope="col" className={css.cell}>
                {t('sandbox.merchant')}
              </th>
              <th scope="col" className={css.cell}>
                {t('sandbox.code')}
              </th>
            </tr>
          </thead>
          <tbody>
            {merchants.map((m) => (
              <tr key={m.id}>
                <th scope="row" className={css.cell}>
                  <Link to={`/merchant/details/${m.id}`}>{m.name}</Link>
                </th>
                <td className={css.cell}>
                  <code className={css.code}>{m.merchantCode}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
