import { PageStub } from '../../components/PageStub.tsx';

export { ProfilePage as MyProfilePage } from './ProfilePage.tsx';
export { SettingsPage as MySettingsPage } from './SettingsPage.tsx';
export { NotificationsPage as MyNotificationsPage } from './NotificationsPage.tsx';
export { NamePrompt } from './NamePrompt.tsx';

/** The sections of my pages not built yet (notifications, account). */
export const MyPage = () => <PageStub titleKey="my" />;
