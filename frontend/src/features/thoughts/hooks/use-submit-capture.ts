import { useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import { createElement, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import type { assistantContract, Conversation } from '@haven/contracts/assistant';
import type { CaptureCategory } from '@haven/contracts/common';
import { titleFromText } from '@haven/contracts/conversation-rules';
import { paths } from '@/config/paths';
import { createThought as postThought, useCreateThought } from '@/features/thoughts/api/create-thought';
import { thoughtsQueryKey } from '@/features/thoughts/api/query-keys';
import { ToastAction } from '@/components/ui/toast';
import { isRetryable, queuedThoughtsQueryKey } from '@/features/thoughts/api/sync-queued-thoughts';
import { enqueueThought } from '@/features/thoughts/lib/offline-queue';
import { getErrorMessage, type ApiBody } from '@/lib/api';
import type { Thought, thoughtsContract } from '@haven/contracts/thoughts';
import { blobToDataUrl } from '@/features/thoughts/lib/blob-to-data-url';
import { MAX_AUDIO_BYTES } from '@/features/thoughts/lib/capture-constants';
import { toast } from '@/hooks/use-toast';

/**
 * Starts a conversation with a chat-type entry. Conversations belong to the assistant feature, so
 * the app passes its create-conversation mutation in (features do not import each other).
 */
export type StartChat = Pick<
  UseMutationResult<Conversation, Error, ApiBody<typeof assistantContract.create>>,
  'mutate' | 'isPending'
>;

/** Deletes a conversation a capture started (the assistant's delete mutation, passed in by the app). */
export type DiscardChat = (conversationId: number) => Promise<unknown>;

/** How long 'Conversation started' offers its Undo: longer than other toasts, to find the button. */
export const UNDO_TOAST_MS = 10_000;

export interface CaptureSubmission {
  text: string;
  category: CaptureCategory;
  /** Captured in voice mode: the recording goes along when there is one. */
  isVoice: boolean;
  collectAudio: () => Promise<Blob | null>;
  /** 'chat' starts a conversation with the assistant instead of saving a thought. */
  type: 'thought' | 'chat';
  /** When the entry is dated: now, or the day and time the user picked. */
  date: Date;
}

function toastEmptyContent(): void {
  toast({
    title: 'Empty content',
    description: 'Please say or enter some text before submitting',
    variant: 'destructive',
  });
}

/** The recording as a data URL; undefined when it is over the 10 MB limit or unreadable. */
async function toAudioData(blob: Blob): Promise<string | undefined> {
  if (blob.size > MAX_AUDIO_BYTES) return undefined;
  return blobToDataUrl(blob).catch(() => undefined);
}

/**
 * Undo of a capture sent as a chat: leaves the conversation it opened, deletes it, and saves the
 * text as the thought it was meant to be. It runs after the dialog has closed, so it calls the
 * API functions rather than the capture's mutations.
 */
function useUndoChat(discardChat: DiscardChat) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async function undoChat(conversationId: number, thought: ApiBody<typeof thoughtsContract.create>) {
    if (window.location.pathname === paths.conversation.getHref(conversationId)) navigate(-1);
    try {
      await discardChat(conversationId);
    } catch (error) {
      toast({
        title: 'Error',
        description: getErrorMessage(error, 'Failed to delete the conversation. Please try again.'),
        variant: 'destructive',
      });
      return;
    }
    try {
      await postThought(thought);
      toast({ title: 'Thought saved', description: 'Your thought has been encrypted and saved.' });
    } catch (error) {
      toast({
        title: 'Failed to save thought',
        description: getErrorMessage(error, 'Failed to save your thought. Please try again.'),
        variant: 'destructive',
      });
    } finally {
      void queryClient.invalidateQueries({ queryKey: thoughtsQueryKey });
    }
  };
}

/**
 * Saves the captured entry as a thought, or, for a chat entry, starts a conversation with it and
 * opens that conversation. Empty text is refused unless a recording goes along (the
 * server then transcribes it); a voice entry without a recording is still saved, with a warning.
 */
export function useSubmitCapture({
  onSaved,
  startChat,
  discardChat,
}: {
  /** Called once the entry is in: with the saved thought, or with nothing (a chat, a queued save). */
  onSaved: (saved?: Thought) => void;
  startChat: StartChat;
  discardChat: DiscardChat;
}) {
  const queryClient = useQueryClient();
  const createThought = useCreateThought({
    mutationConfig: {
      onSuccess: () =>
        toast({ title: 'Thought saved', description: 'Your thought has been encrypted and saved.' }),
      onError: async (error, body) => {
        // Nothing typed is lost: a save the network (or a server that is down) failed waits on
        // this device and is sent, once, when the connection returns.
        if (isRetryable(error) && body.clientKey && body.clientDate && body.timezoneOffset !== undefined) {
          await enqueueThought({
            ...body,
            clientKey: body.clientKey,
            clientDate: body.clientDate,
            timezoneOffset: body.timezoneOffset,
          });
          await queryClient.invalidateQueries({ queryKey: queuedThoughtsQueryKey });
          toast({ title: 'Saved on this device', description: 'It will sync when you are back online.' });
          onSaved();
          return;
        }
        toast({
          title: 'Submission error',
          description: getErrorMessage(error, 'Failed to save your thought. Please try again.'),
          variant: 'destructive',
        });
      },
    },
  });
  const navigate = useNavigate();
  const [preparing, setPreparing] = useState(false);
  const undoChat = useUndoChat(discardChat);

  async function submit({ text, category, isVoice, collectAudio, type, date }: CaptureSubmission) {
    const content = text.trim();
    if (!content && !isVoice) return toastEmptyContent();
    setPreparing(true);
    try {
      const recording = isVoice ? await collectAudio() : null;
      const audioData = recording ? await toAudioData(recording) : undefined;
      if (!content && !audioData) return toastEmptyContent();
      if (isVoice && !recording)
        toast({ title: 'Audio recording issue', description: 'No audio was captured' });
      // The entry as a thought: saved now, or, for a chat, kept for the Undo that saves it after all.
      const thought = {
        clientKey: crypto.randomUUID(),
        content,
        category,
        isVoice,
        audioData,
        clientDate: date.toISOString(),
        // The offset of that moment, not of today's: a day across a daylight-saving change stays that day.
        timezoneOffset: date.getTimezoneOffset(),
      };
      if (type === 'chat' && content) {
        const { clientKey: _key, category: _category, ...message } = thought;
        startChat.mutate(
          { title: titleFromText(content), ...message },
          {
            onSuccess: (conversation) => {
              const shown = toast({
                title: 'Conversation started',
                description: 'Meant it as a note? Undo saves it as a thought.',
                duration: UNDO_TOAST_MS,
                action: createElement(
                  ToastAction,
                  {
                    onClick: () => {
                      shown.dismiss();
                      void undoChat(conversation.id, thought);
                    },
                  },
                  'Undo',
                ),
              });
              onSaved();
              navigate(paths.conversation.getHref(conversation.id));
            },
            onError: (error) =>
              toast({
                title: 'Submission error',
                description: getErrorMessage(error, 'Failed to create conversation'),
                variant: 'destructive',
              }),
          },
        );
        return;
      }
      createThought.mutate(thought, { onSuccess: (saved) => onSaved(saved) });
    } finally {
      setPreparing(false);
    }
  }

  return { submit, saving: preparing || createThought.isPending || startChat.isPending };
}
