import type { i18n as I18n } from 'i18next';
import type { Language } from '../../i18n.ts';

/**
 * Switches the app's language. A browser with push turned on tells the server again, so its
 * pushes follow the new language (migration 013); the push code loads only then.
 */
export async function switchLanguage(i18n: I18n, language: Language): Promise<void> {
  await i18n.changeLanguage(language);
  const { resendWebPushSubscription } = await import('../../components/webPush.ts');
  await resendWebPushSubscription();
}
