import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';

/** One conversation, `/conversations/:id`. */
export function ConversationRoute() {
  return <SimplePage backTo={paths.conversations.path} title="Conversation" />;
}
