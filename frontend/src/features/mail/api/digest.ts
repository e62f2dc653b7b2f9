import { calendarContract, type CalendarAnswer, type RsvpBody } from '@haven/contracts/calendar';
import { mailContract, type EmailDigest, type EmailItem } from '@haven/contracts/mail';
import { workspaceContract, type MoreAnswer } from '@haven/contracts/workspace';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query-client';

export const digestQueryKey = ['assist', 'emails'] as const;
export const calendarQueryKey = ['assist', 'calendar'] as const;

/** The browser's offset, so "new since yesterday" is the user's own yesterday. */
const here = () => ({ timezoneOffset: String(new Date().getTimezoneOffset()) });

/** The e-mail digest from the server's cache (kept fresh by its sync). */
export async function getEmails(): Promise<EmailDigest> {
  try {
    return await api(mailContract.emails, { query: here(), noCache: true });
  } catch (error) {
    throw new Error('Failed to load emails', { cause: error });
  }
}

export const getEmailsQueryOptions = () =>
  queryOptions({ queryKey: digestQueryKey, queryFn: getEmails, refetchInterval: 60_000 });

export function useEmails() {
  return useQuery(getEmailsQueryOptions());
}

/** One e-mail with its sanitised body. */
export function getEmail(id: string): Promise<EmailItem> {
  return api(mailContract.email, { params: { id }, query: here() });
}

export function useEmail(id: string | undefined) {
  return useQuery({
    queryKey: [...digestQueryKey, id],
    queryFn: () => getEmail(id!),
    enabled: id !== undefined,
    staleTime: 5 * 60_000,
  });
}

/**
 * Marks a thread the user just answered as no longer needing a reply in the cached digest, at once
 * (the server has marked it too; the next fetch agrees).
 */
export function useMarkReplied() {
  const queryClient = useQueryClient();
  return (threadId: string) => {
    queryClient.setQueryData<EmailDigest>(digestQueryKey, (digest) => {
      if (!digest) return digest;
      const answered = digest.emails.filter((e) => e.threadId === threadId && e.needsReply).length;
      return {
        ...digest,
        emails: digest.emails.map((e) => (e.threadId === threadId ? { ...e, needsReply: false } : e)),
        stats: {
          ...digest.stats,
          needingResponse: Math.max(0, digest.stats.needingResponse - answered),
        },
      };
    });
    void queryClient.invalidateQueries({ queryKey: digestQueryKey, exact: true });
  };
}

/** A reply draft: the model's, or the template when there is none. */
export function draftReply(email: { emailId: string; threadId: string }) {
  return api(mailContract.emailDraft, { body: email });
}

export function useDraftReply({
  mutationConfig,
}: { mutationConfig?: MutationConfig<typeof draftReply> } = {}) {
  return useMutation({ ...mutationConfig, mutationFn: draftReply });
}

/** Calendar invitations awaiting an answer. */
export async function getCalendar(): Promise<CalendarAnswer> {
  try {
    return await api(calendarContract.calendar, { noCache: true });
  } catch (error) {
    throw new Error('Failed to load calendar events', { cause: error });
  }
}

export const getCalendarQueryOptions = () =>
  queryOptions({ queryKey: calendarQueryKey, queryFn: getCalendar, refetchInterval: 60_000 });

export function useCalendar() {
  return useQuery(getCalendarQueryOptions());
}

/** Answers an invitation in the connected calendar. */
export function rsvp({ id, response }: { id: string; response: RsvpBody['response'] }) {
  return api(calendarContract.rsvp, { params: { id }, body: { response } });
}

export function useRsvp({ mutationConfig }: { mutationConfig?: MutationConfig<typeof rsvp> } = {}) {
  const queryClient = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: rsvp,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: calendarQueryKey });
      await onSuccess?.(...args);
    },
  });
}

/** Slack messages waiting for a reply and recent Notion pages. */
export async function getMore(): Promise<MoreAnswer> {
  return api(workspaceContract.more, { noCache: true });
}

export const getMoreQueryOptions = () =>
  queryOptions({ queryKey: ['assist', 'more'], queryFn: getMore, refetchInterval: 60_000 });

export function useMore() {
  return useQuery(getMoreQueryOptions());
}
