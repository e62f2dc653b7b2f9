import { IntegrationType } from '@haven/contracts/integrations';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';

import { buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { completeConnection } from '../api/connect-integration';
import { DIRECT_TYPE_KEY } from './direct-auth';

type Outcome = { state: 'loading' } | { state: 'success' } | { state: 'failed'; message: string };

/** `/direct-google-callback`: completes a direct consent with the code and state Google returned. */
export function DirectCallback() {
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const error = params.get('error');
  // What the address alone decides; otherwise the server's answer does.
  const immediate: Outcome | null = error
    ? { state: 'failed', message: error }
    : !code || !state
      ? { state: 'failed', message: 'Missing required OAuth parameters' }
      : null;
  const [answer, setAnswer] = useState<Outcome>({ state: 'loading' });
  const started = useRef(false);

  useEffect(() => {
    if (error || !code || !state || started.current) return;
    started.current = true;
    const type = IntegrationType.safeParse(sessionStorage.getItem(DIRECT_TYPE_KEY)).data ?? 'calendar';
    completeConnection({ code, state, type })
      .then(() => setAnswer({ state: 'success' }))
      .catch((err: unknown) =>
        setAnswer({ state: 'failed', message: getErrorMessage(err, 'Failed to complete the integration') }),
      );
  }, [error, code, state]);
  const outcome = immediate ?? answer;

  return (
    <div role="status" className="flex flex-col items-center gap-3 rounded-xl border bg-card p-6 text-center">
      {outcome.state === 'loading' && (
        <>
          <Spinner />
          <p className="text-sm text-muted-foreground">Completing the integration setup...</p>
        </>
      )}
      {outcome.state === 'success' && (
        <>
          <CheckCircle2 aria-hidden="true" className="size-10 text-emerald-500" />
          <h2 className="text-lg font-semibold">Integration Successful</h2>
          <p className="text-sm text-muted-foreground">Your account has been successfully connected.</p>
        </>
      )}
      {outcome.state === 'failed' && (
        <>
          <XCircle aria-hidden="true" className="size-10 text-destructive" />
          <h2 className="text-lg font-semibold">Integration Failed</h2>
          <p className="text-sm text-muted-foreground">{outcome.message}</p>
        </>
      )}
      {outcome.state !== 'loading' && (
        <Link
          to={paths.integrations.path}
          className={cn(buttonVariants({ variant: 'default' }), 'mt-2 w-full')}
        >
          Return to Integrations
        </Link>
      )}
    </div>
  );
}
