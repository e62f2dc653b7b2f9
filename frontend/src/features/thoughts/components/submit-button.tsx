import { LoaderCircle, MessageCircle, Save } from 'lucide-react';

import { Button } from '@/components/ui/button';
import type { ContentType } from '@haven/contracts/classify';

interface SubmitButtonProps {
  type: ContentType;
  analyzing: boolean;
  saving: boolean;
  /** The text cannot be sent as it is (over the length limit); the form says why. */
  blocked?: boolean;
}

/** 'Save Thought' or 'Start Chat' by the classification; 'Analyzing...' / 'Saving...' while busy. */
export function SubmitButton({ type, analyzing, saving, blocked = false }: SubmitButtonProps) {
  const busy = saving || analyzing;
  const label = saving
    ? 'Saving...'
    : analyzing
      ? 'Analyzing...'
      : type === 'chat'
        ? 'Start Chat'
        : 'Save Thought';
  const Icon = busy ? LoaderCircle : type === 'chat' ? MessageCircle : Save;
  return (
    <Button type="submit" disabled={busy || blocked} aria-busy={busy || undefined} className="sm:min-w-36">
      <Icon className={busy ? 'animate-spin' : undefined} aria-hidden="true" />
      {label}
    </Button>
  );
}
