import { titleFromText } from '@haven/contracts/conversation-rules';
import { Mic, Send } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Textarea } from '@/components/ui/textarea';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { useCreateConversation } from '../api/create-conversation';
import { VoiceDialog } from './voice-dialog';

/** The Assist screen's chat card: a message starts a conversation and opens it. */
export function ChatCard() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [voice, setVoice] = useState(false);
  const start = useCreateConversation();

  async function send(content: string, fromVoice = false): Promise<boolean> {
    const trimmed = content.trim();
    if (!trimmed || start.isPending) return false;
    try {
      const conversation = await start.mutateAsync({
        title: titleFromText(trimmed),
        content: trimmed,
        isVoice: fromVoice,
        clientDate: new Date().toISOString(),
        timezoneOffset: new Date().getTimezoneOffset(),
      });
      setText('');
      navigate(paths.conversation.getHref(conversation.id));
      return true;
    } catch {
      toast({
        title: 'Error',
        description: fromVoice
          ? 'Failed to process voice message. Please try again.'
          : 'Failed to send message. Please try again.',
        variant: 'destructive',
      });
      return false;
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void send(text);
    }
  }

  return (
    <Card className="flex min-h-0 flex-col gap-2 p-3">
      <Textarea
        aria-label="Message the assistant"
        placeholder="Ask your assistant anything..."
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        className="min-h-0 flex-1 resize-none"
      />
      <div className="flex justify-between gap-2">
        <Button variant="outline" size="sm" onClick={() => setVoice(true)}>
          <Mic aria-hidden /> Voice Input
        </Button>
        <Button size="sm" onClick={() => void send(text)} disabled={!text.trim() || start.isPending}>
          <Send aria-hidden /> Send
        </Button>
      </div>
      <VoiceDialog
        open={voice}
        onOpenChange={setVoice}
        busy={start.isPending}
        onSend={(spoken) => send(spoken, true)}
      />
    </Card>
  );
}
