import { ScreenTabBar } from '@/app/routes/app/screen-tab-bar';
import { SimplePage } from '@/components/layouts/simple-page';
import { paths } from '@/config/paths';
import { ConversationsList } from '@/features/assistant/components/conversations-list';

/** `/conversations`: back to Assist, the list, and the tab bar (reached from the Assist tab). */
export function ConversationsRoute() {
  return (
    <>
      <SimplePage
        backTo={paths.assist.path}
        title="Conversations"
        className="pb-[calc(6rem+env(safe-area-inset-bottom))]"
      >
        <ConversationsList />
      </SimplePage>
      <ScreenTabBar />
    </>
  );
}
