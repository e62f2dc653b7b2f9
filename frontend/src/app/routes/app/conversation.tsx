import { useParams } from 'react-router-dom';

import { NotFoundRoute } from '@/app/routes/not-found';
import { ConversationView } from '@/features/assistant/components/conversation-view';
import { usePreferences } from '@/features/settings/api/get-preferences';

/** One conversation, `/conversations/:id`; the e-mail draft asks first unless the user turned that off. */
export function ConversationRoute() {
  const id = Number(useParams().id);
  const preferences = usePreferences().data;
  if (!Number.isInteger(id) || id <= 0) return <NotFoundRoute />;
  return <ConversationView key={id} id={id} confirmEmails={preferences?.askBeforeEmails ?? true} />;
}
