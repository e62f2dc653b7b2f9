import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { ConversationsList } from '@/features/assistant/components/conversations-list';

export function ConversationsRoute() {
  return (
    <SimplePage backTo={paths.assist.path} title="Conversations">
      <ConversationsList />
    </SimplePage>
  );
}
