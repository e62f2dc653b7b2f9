import { useParams } from 'react-router-dom';

import { NotFoundRoute } from '@/app/routes/not-found';
import { paths } from '@/config/paths';
import { ConversationView } from '@/features/assistant/components/conversation-view';
import { NewConversationView } from '@/features/assistant/components/new-conversation-view';
import { usePreferences } from '@/features/settings/api/get-preferences';
import { getThoughtsByIdsQueryOptions } from '@/features/thoughts/api/get-thoughts-by-ids';

const NEW_ID = paths.newConversation.path.split('/').pop();

/**
 * One conversation, `/conversations/:id`, or `/conversations/new` before its first message; the
 * e-mail draft asks first unless the user turned that off.
 */
export function ConversationRoute() {
  const param = useParams().id;
  const id = Number(param);
  const preferences = usePreferences().data;
  if (param === NEW_ID) return <NewConversationView />;
  if (!Number.isInteger(id) || id <= 0) return <NotFoundRoute />;
  return (
    <ConversationView
      key={id}
      id={id}
      confirmEmails={preferences?.askBeforeEmails ?? true}
      citedThoughts={getThoughtsByIdsQueryOptions}
    />
  );
}
