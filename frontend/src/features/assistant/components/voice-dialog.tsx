import { Mic, Square } from 'lucide-react';
import { useCallback, useState } from 'react';

import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/hooks/use-toast';
import { useSpeechRecognition } from '@/hooks/use-speech-recognition';
import { joinText } from '@/lib/join-text';
import { ChatInput } from './chat-input';

interface VoiceDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy: boolean;
  /** Resolves true once sent (the dialog then closes). */
  onSend: (text: string) => Promise<boolean>;
}

/** 'Voice Conversation': record, see and edit the words, then send them. */
export function VoiceDialog({ open, onOpenChange, busy, onSend }: VoiceDialogProps) {
  const [text, setText] = useState('');
  const [recording, setRecording] = useState(false);
  const onFinal = useCallback((spoken: string) => setText((t) => joinText(t, spoken)), []);
  const onProblem = useCallback(() => {
    setRecording(false);
    toast({
      title: 'Speech recognition not available',
      description: 'Type your message instead, or use Chrome or Edge.',
    });
  }, []);
  const { interim } = useSpeechRecognition({ enabled: open && recording, onFinal, onProblem });
  const shown = recording ? joinText(text, interim) : text;

  function close(next: boolean) {
    if (!next) {
      setRecording(false);
      setText('');
    }
    onOpenChange(next);
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent showCloseButton>
        <DialogHeader>
          <DialogTitle>Voice Conversation</DialogTitle>
        </DialogHeader>
        <Button
          variant={recording ? 'destructive' : 'outline'}
          onClick={() => setRecording((r) => !r)}
          className="self-start"
        >
          {recording ? <Square aria-hidden /> : <Mic aria-hidden />}
          {recording ? 'Stop' : 'Record'}
        </Button>
        <ChatInput
          layout="stacked"
          label="What you said"
          placeholder="Speak, or type here..."
          rows={4}
          value={shown}
          onValueChange={setText}
          busy={busy}
          busyLabel="Processing..."
          onSend={async (spoken) => {
            setRecording(false);
            if (await onSend(spoken)) close(false);
          }}
          actions={<DialogClose size="sm">Cancel</DialogClose>}
        />
      </DialogContent>
    </Dialog>
  );
}
