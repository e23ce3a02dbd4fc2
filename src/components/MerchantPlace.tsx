import { useTranslation } from 'react-i18next';
import type { MerchantAddress } from '../../contract/merchant.ts';
import { visuallyHidden } from './ui.css.ts';
import * as css from './merchantPlace.css.ts';

/**
 * A plain map search for the address: Google Maps' documented search URL (no key, no script), so
 * the phone opens its map app or the browser a map. Opens in a new tab.
 */
export function mapSearchUrl(a: MerchantAddress): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${a.street}, ${a.postalCode} ${a.city}`)}`;
}

/** "Skånegatan 73, Stockholm": the address on one line, for a card. */
export const addressLine = (a: MerchantAddress): string => `${a.street}, ${a.city}`;

/**
 * Where and when a merchant's gifts are used: the address with a link to a map, and the opening
 * hours as the merchant writes them. Nothing when the merchant has neither.
 */
export function MerchantPlace({ name, address, openingHours }: { name: string; address: MerchantAddress | null | undefined; openingHours: string | null | undefined }) {
  const { t } = useTranslation('common');
  if (!address && !openingHours) return null;
  return (
    <dl className={css.place}>
      {address && (
        <div className={css.row}>
          <dt className={css.term}>{t('place.address')}</dt>
          <dd className={css.value}>
            <address className={css.address}>
              {address.street}
              <br />
              {address.postalCode} {address.city}
            </address>
            <a href={mapSearchUrl(address)} target="_blank" rel="noopener noreferrer">
              {t('place.map')}
              <span className={visuallyHidden}> {t('place.mapNote', { name })}</span>
            </a>
          </dd>
        </div>
      )}
      {openingHours && (
        <div className={css.row}>
          <dt className={css.term}>{t('place.openingHours')}</dt>
          <dd className={css.value}>{openingHours}</dd>
        </div>
      )}
    </dl>
  );
}
