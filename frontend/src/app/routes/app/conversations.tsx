import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';

export function ConversationsRoute() {
  return <SimplePage backTo={paths.assist.path} title="Conversations" />;
}
