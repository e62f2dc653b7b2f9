import { Send } from 'lucide-react';
import type { KeyboardEvent, ReactNode } from 'react';

import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';

interface ChatInputProps {
  value: string;
  onValueChange: (value: string) => void;
  /** Called with the trimmed text; never with blank text or while `busy`. */
  onSend: (text: string) => void | Promise<unknown>;
  /** A send is in flight: Send waits (spec 5: no send in progress). */
  busy: boolean;
  label: string;
  placeholder: string;
  /**
   * `inline`: one growing line with a round Send (the conversation screen). `stacked`: the text
   * above a row of `actions` and a labelled Send (the Assist card, the voice dialog).
   */
  layout: 'inline' | 'stacked';
  /** Controls at the start of the stacked row (Voice Input, Cancel). */
  actions?: ReactNode;
  /** Send's label while busy in the stacked layout (the voice dialog's 'Processing...'). */
  busyLabel?: string;
  rows?: number;
  className?: string;
}

/**
 * The message box of every chat surface: Enter sends, Shift+Enter inserts a newline, and Send is
 * disabled while the text is blank or a send is in flight (spec 5).
 */
export function ChatInput({
  value,
  onValueChange,
  onSend,
  busy,
  label,
  placeholder,
  layout,
  actions,
  busyLabel,
  rows,
  className,
}: ChatInputProps) {
  const blank = !value.trim();
  function submit() {
    if (blank || busy) return;
    void onSend(value.trim());
  }
  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Not while an input method composes a word: its Enter picks the word.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  }
  const inline = layout === 'inline';
  return (
    <form
      className={cn(inline ? 'flex items-end gap-2' : 'flex min-h-0 flex-col gap-2', className)}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Textarea
        // A field without id or name is flagged by Chrome's Issues panel (autofill cannot tell it apart).
        name="message"
        aria-label={label}
        placeholder={placeholder}
        rows={rows ?? (inline ? 1 : 2)}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        onKeyDown={onKeyDown}
        className={inline ? 'max-h-40 min-h-11 resize-none' : 'min-h-0 flex-1 resize-none'}
      />
      {inline ? (
        <Button type="submit" size="icon" aria-label="Send" disabled={blank || busy}>
          <Send aria-hidden />
        </Button>
      ) : (
        <div className="flex items-center justify-between gap-2">
          {actions ?? <span />}
          <Button type="submit" size="sm" disabled={blank || busy}>
            <Send aria-hidden /> {busy && busyLabel ? busyLabel : 'Send'}
          </Button>
        </div>
      )}
    </form>
  );
}
