import { CalendarHeart } from 'lucide-react';
import { useNavigate } from 'react-router-dom';

import { weekLabel } from '@haven/contracts/weekly-review';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useStartWeeklyReview } from '@/features/assistant/api/start-weekly-review';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

/** The button that opens the review of the week containing `date` and goes to its conversation. */
export function StartWeeklyReviewButton({
  date,
  label = 'Start weekly review',
  variant = 'default',
}: {
  date: string;
  label?: string;
  variant?: 'default' | 'outline';
}) {
  const navigate = useNavigate();
  const start = useStartWeeklyReview({
    mutationConfig: {
      onSuccess: (conversation) => navigate(paths.conversation.getHref(conversation.id)),
      onError: (error) =>
        toast({
          title: 'Error',
          description: getErrorMessage(error, 'Failed to start the weekly review. Please try again.'),
          variant: 'destructive',
        }),
    },
  });
  return (
    <PendingButton
      variant={variant}
      className="w-full"
      pending={start.isPending}
      onClick={() => start.mutate(date)}
    >
      {label}
    </PendingButton>
  );
}

/** On the user's review day, the invitation to look back at the week with the assistant. */
export function WeeklyReviewCard({ date }: { date: string }) {
  return (
    <Card role="region" aria-labelledby="weekly-review-title">
      <CardHeader className="gap-3">
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent">
            <CalendarHeart className="size-5" aria-hidden="true" />
          </span>
          <div className="flex min-w-0 flex-col gap-1">
            <CardTitle id="weekly-review-title">Your weekly review</CardTitle>
            <CardDescription>
              Look back at {weekLabel(date)} with the assistant: what you wrote, your mood, open suggestions
              and next week&apos;s invitations.
            </CardDescription>
          </div>
        </div>
        <StartWeeklyReviewButton date={date} />
      </CardHeader>
    </Card>
  );
}
