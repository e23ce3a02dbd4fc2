import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '../../i18n.ts';
import * as css from './shell.css.ts';
import { switchLanguage } from './switchLanguage.ts';

/** Swedish or English; i18n keeps the choice in localStorage (`i18nextLng`) and on <html lang>. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = (languages as readonly string[]).includes(i18n.language) ? i18n.language : 'sv';
  return (
    <div className={css.languageSwitch}>
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        className={css.languageSelect}
        value={current}
        onChange={(e) => void switchLanguage(i18n, e.target.value as Language)}
      >
        {languages.map((l) => (
          <option key={l} value={l} lang={l}>
            {t(`language.${l}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
