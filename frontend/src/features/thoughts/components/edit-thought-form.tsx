import { MAX_CONTENT_LENGTH, type Thought } from '@haven/contracts/thoughts';
import { Eye, PenLine, Trash2 } from 'lucide-react';
import { useCallback, useRef, useState, type FormEvent } from 'react';

import { TagEditor } from '@/features/thoughts/components/tag-editor';
import { useAutosize } from '@/features/thoughts/hooks/use-autosize';
import { useRegisterDiscardGuard, type DiscardGuard } from '@/features/thoughts/hooks/use-discard-guard';
import { useEditThoughtActions } from '@/features/thoughts/hooks/use-edit-thought-actions';
import { submitOnModEnter } from '@/features/thoughts/lib/submit-on-mod-enter';
import { useDraft } from '@/hooks/use-draft';
import { CATEGORY_OPTIONS } from '@/components/thoughts/thought-categories';
import { changesOf, draftOf, type ThoughtDraft } from '@/features/thoughts/lib/thought-changes';
import { formatShortDay, formatTimeOfDay } from '@/components/thoughts/thought-format';
import { LazyMarkdown } from '@/components/markdown/lazy-markdown';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DialogClose, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { PendingButton } from '@/components/ui/pending-button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Textarea } from '@/components/ui/textarea';
import { Toggle } from '@/components/ui/toggle';

/** The thought's category as tabs, each with its description under it. */
function CategoryTabs({
  value,
  onChange,
  disabled,
}: {
  value: ThoughtDraft['category'];
  onChange: (category: ThoughtDraft['category']) => void;
  disabled: boolean;
}) {
  return (
    <Tabs
      value={value}
      onValueChange={(next) => onChange(next as ThoughtDraft['category'])}
      className="gap-2"
    >
      <TabsList aria-label="Category">
        {CATEGORY_OPTIONS.map((option) => (
          <TabsTrigger key={option.value} value={option.value} disabled={disabled} className="px-2">
            {option.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {CATEGORY_OPTIONS.map((option) => (
        <TabsContent key={option.value} value={option.value}>
          <p className="px-1 text-sm text-muted-foreground">{option.description}</p>
        </TabsContent>
      ))}
    </Tabs>
  );
}

interface EditThoughtFormProps {
  thought: Thought;
  onClose: () => void;
  /** Filled in so the dialog can ask before unsaved changes are closed away. */
  guardRef: { current: DiscardGuard | null };
}

/**
 * Category, text and tags of one thought; Save sends only what changed, Delete asks first. A Markdown
 * note (imported) opens as a rendered preview with an 'Edit text' switch to its Markdown.
 */
export function EditThoughtForm({ thought, onClose, guardRef }: EditThoughtFormProps) {
  const [draft, setDraft] = useState<ThoughtDraft>(() => draftOf(thought));
  // The text as typed is kept on the device until it is saved (a reload or a closed tab loses nothing).
  const kept = useDraft({
    slot: `edit:${thought.id}`,
    text: draft.content,
    unsaved: draft.content.trim() !== thought.content.trim(),
    onRestore: useCallback((text: string) => setDraft((d) => ({ ...d, content: text })), []),
  });
  const area = useRef<HTMLTextAreaElement>(null);
  useAutosize(area, draft.content);
  useRegisterDiscardGuard(guardRef, {
    unsaved: () => changesOf(thought, draft) !== null,
    discard: () => void kept.forget(),
  });
  const [confirming, setConfirming] = useState(false);
  // An imported Markdown note opens rendered, to read; its text is one tap away.
  const markdown = thought.format === 'markdown';
  const [reading, setReading] = useState(markdown);
  const { update, remove } = useEditThoughtActions({ forget: kept.forget, onClose });
  const busy = update.isPending || remove.isPending;
  const blank = draft.content.trim() === '';

  function save(event: FormEvent) {
    event.preventDefault();
    if (blank || busy) return;
    const changes = changesOf(thought, draft);
    if (changes) update.mutate({ id: thought.id, changes });
    else {
      void kept.forget();
      onClose();
    }
  }

  return (
    <form onSubmit={save} onKeyDown={submitOnModEnter} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Edit Thought</DialogTitle>
        <DialogDescription>
          {formatShortDay(thought.localDate)} at {formatTimeOfDay(thought.date)}
          {kept.restored && <span role="status"> · Draft restored</span>}
        </DialogDescription>
      </DialogHeader>

      <CategoryTabs
        value={draft.category}
        onChange={(category) => setDraft((d) => ({ ...d, category }))}
        disabled={busy}
      />

      {markdown && (
        <div role="group" aria-label="Note view" className="grid grid-cols-2 gap-1 rounded-xl bg-muted p-1">
          <Toggle variant="segment" pressed={reading} onClick={() => setReading(true)}>
            <Eye aria-hidden="true" />
            Preview
          </Toggle>
          <Toggle variant="segment" pressed={!reading} onClick={() => setReading(false)}>
            <PenLine aria-hidden="true" />
            Edit text
          </Toggle>
        </div>
      )}
      {markdown && reading ? (
        <LazyMarkdown
          text={draft.content}
          variant="note"
          className="max-h-[45vh] overflow-y-auto rounded-lg border bg-card px-3 py-2 text-[15px] leading-relaxed"
        />
      ) : (
        <Textarea
          ref={area}
          value={draft.content}
          onChange={(event) => setDraft((d) => ({ ...d, content: event.target.value }))}
          aria-label="Edit your thought..."
          placeholder="Edit your thought..."
          rows={markdown ? 10 : 5}
          // Grows with its text (at least the spec's 5 rows) up to most of the screen, then scrolls.
          className="max-h-[calc(100dvh-24rem)] overflow-y-auto"
          maxLength={MAX_CONTENT_LENGTH}
          disabled={busy}
        />
      )}

      <TagEditor tags={draft.tags} onChange={(tags) => setDraft((d) => ({ ...d, tags }))} disabled={busy} />

      <div className="flex items-center gap-2 pt-1">
        <Button
          variant="ghost"
          onClick={() => setConfirming(true)}
          disabled={busy}
          className="-ml-2 px-2 text-destructive hover:bg-destructive/10 hover:text-destructive dark:text-red-400"
        >
          <Trash2 aria-hidden="true" />
          {remove.isPending ? 'Deleting...' : 'Delete'}
        </Button>
        <DialogClose className="ml-auto" disabled={busy}>
          Cancel
        </DialogClose>
        <PendingButton type="submit" pending={update.isPending} disabled={blank || remove.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </PendingButton>
      </div>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Are you sure you want to delete this thought?"
        description="This action cannot be undone. This thought will be permanently deleted from your records."
        confirmLabel="Delete"
        destructive
        onConfirm={() => remove.mutate(thought.id)}
      />
    </form>
  );
}
