import type { IntegrationType } from '@haven/contracts/integrations';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useDirectLink } from '../api/connect-integration';

/** Remembers the type a direct link was made for, for the callback page to send back. */
export const DIRECT_TYPE_KEY = 'haven:direct-auth-type';

/** `/direct-google-auth`: a consent link made on request, for when connecting the usual way fails. */
export function DirectAuth() {
  const [type, setType] = useState<IntegrationType>('calendar');
  const [alternativeRedirect, setAlternativeRedirect] = useState(true);
  const link = useDirectLink({
    mutationConfig: {
      onSuccess: () => sessionStorage.setItem(DIRECT_TYPE_KEY, type),
      onError: (error) =>
        toast({
          title: 'Error generating link',
          description: getErrorMessage(error),
          variant: 'destructive',
        }),
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Connect Google directly</CardTitle>
        <CardDescription>Use this when connecting from the Integrations page fails.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Integration type</legend>
          {(['calendar', 'email'] as const).map((option) => (
            <label key={option} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="type"
                value={option}
                checked={type === option}
                onChange={() => {
                  setType(option);
                  link.reset();
                }}
                className="size-4 accent-[var(--accent)]"
              />
              {option === 'calendar' ? 'Calendar' : 'Email'}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={alternativeRedirect}
            onChange={(e) => {
              setAlternativeRedirect(e.target.checked);
              link.reset();
            }}
            className="size-4 accent-[var(--accent)]"
          />
          Use Alternative Redirect
        </label>
        <PendingButton pending={link.isPending} onClick={() => link.mutate({ type, alternativeRedirect })}>
          Generate Direct Link
        </PendingButton>
        {link.data && (
          <a href={link.data} className={cn(buttonVariants({ variant: 'default' }), 'w-full')}>
            Open OAuth
          </a>
        )}
        <Link to={paths.integrations.path} className={cn(buttonVariants({ variant: 'outline' }), 'w-full')}>
          Back to Integrations
        </Link>
      </CardContent>
    </Card>
  );
}
