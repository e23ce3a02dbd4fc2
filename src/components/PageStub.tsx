import { useTranslation } from 'react-i18next';
import { usePageTitle } from './usePageTitle.ts';

/** A page that is not built yet: its real title and a short, friendly text — never an error. */
export function PageStub({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const title = t(`pages.${titleKey}.title`);
  usePageTitle(title);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <p>{t('comingSoon')}</p>
    </section>
  );
}
