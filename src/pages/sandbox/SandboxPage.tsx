import { Navigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { useSandboxOn } from '../../components/useSandboxOn.ts';
import { container } from '../../components/ui.css.ts';
import { sandboxSections, type SandboxSection } from './sections.ts';
import * as css from './sandbox.css.ts';

/**
 * /sandbox: what the sandbox adapters kept instead of sending (SMS, and the sections other
 * features add in ./sections.ts). Shown only when GET /api/sandbox answers 200; otherwise /404.
 */
export function SandboxPage({ sections = sandboxSections }: { sections?: SandboxSection[] }) {
  const { t } = useTranslation('sandbox');
  usePageTitle(t('title'));
  const sandbox = useSandboxOn();

  if (sandbox === 'off') return <Navigate to="/404" replace />;
  if (sandbox === 'checking') {
    return (
      <p className={container} role="status">
        {t('checking')}
      </p>
    );
  }
  return (
    <div className={`${container} ${css.page}`}>
      <header>
        <h1>{t('title')}</h1>
        <p className={css.muted}>{t('intro')}</p>
      </header>
      {sections.map(({ id, Component }) => (
        <Component key={id} />
      ))}
    </div>
  );
}
