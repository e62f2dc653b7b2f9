import { Mic } from 'lucide-react';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useStartConversation } from '../hooks/use-start-conversation';
import { ChatInput } from './chat-input';
import { VoiceDialog } from './voice-dialog';

/** The Assist screen's chat card: a message starts a conversation and opens it. */
export function ChatCard() {
  const [text, setText] = useState('');
  const [voice, setVoice] = useState(false);
  const conversation = useStartConversation();

  return (
    <Card className="flex min-h-0 flex-col p-3">
      <ChatInput
        layout="stacked"
        label="Message the assistant"
        placeholder="Ask your assistant anything..."
        value={text}
        onValueChange={setText}
        onSend={async (content) => {
          if (await conversation.start(content)) setText('');
        }}
        busy={conversation.isPending}
        className="flex-1"
        actions={
          <Button variant="outline" size="sm" onClick={() => setVoice(true)}>
            <Mic aria-hidden /> Voice Input
          </Button>
        }
      />
      <VoiceDialog
        open={voice}
        onOpenChange={setVoice}
        busy={conversation.isPending}
        onSend={(spoken) => conversation.start(spoken, { voice: true })}
      />
    </Card>
  );
}
