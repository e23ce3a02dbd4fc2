import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';

export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('pages.notFound.title'));
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t('pages.notFound.title')}</h1>
      <p>{t('notFound.text')}</p>
      <Link to="/">{t('notFound.home')}</Link>
    </section>
  );
}
