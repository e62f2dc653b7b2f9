import { useState } from 'react';

import { useStartConversation } from '../hooks/use-start-conversation';
import { ChatInput } from './chat-input';
import { ConversationScreen, NoMessages } from './conversation-screen';

/**
 * 'New Conversation' before its first message: nothing exists on the server yet, so leaving
 * leaves nothing behind. The first message creates the conversation and replaces this screen.
 */
export function NewConversationView() {
  const [text, setText] = useState('');
  const conversation = useStartConversation();
  return (
    <ConversationScreen
      title="New Conversation"
      input={
        <ChatInput
          layout="inline"
          label="Message"
          placeholder="Type your message..."
          value={text}
          onValueChange={setText}
          onSend={(content) => conversation.start(content, { replace: true })}
          busy={conversation.isPending}
        />
      }
    >
      {conversation.isPending ? (
        <p role="status" className="animate-pulse text-sm text-muted-foreground">
          Thinking...
        </p>
      ) : (
        <NoMessages />
      )}
    </ConversationScreen>
  );
}
