import { useParams } from 'react-router-dom';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { useSessionUser } from '../../components/session.ts';
import { ProfilePage } from './ProfilePage.tsx';

export { ProfilePage as MyProfilePage } from './ProfilePage.tsx';
export { SettingsPage as MySettingsPage } from './SettingsPage.tsx';
export { NotificationsPage as MyNotificationsPage } from './NotificationsPage.tsx';
export { NamePrompt } from './NamePrompt.tsx';
export { AccountPage as MyAccountPage } from './AccountPage.tsx';

/**
 * /my/{id} (API.md's route table): one's own id shows one's profile; any other section or id is
 * the 404 page, never a hint that somebody else exists.
 */
export function MyPage() {
  const { section = '' } = useParams();
  const user = useSessionUser();
  if (user && section.toLowerCase() === user.id.toLowerCase()) return <ProfilePage />;
  return <NotFoundPage />;
}
