import { LogOut, UserRound } from 'lucide-react';
import { useNavigate } from 'react-router-dom';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

/** Who is signed in, with the Logout button (Settings → Display). */
export function AccountCard() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const logout = useLogout({
    mutationConfig: {
      onSuccess: () => {
        toast({ title: 'Logged out', description: "You've been successfully logged out." });
        navigate(paths.welcome.path, { replace: true });
      },
      onError: (error) =>
        toast({ title: 'Logout failed', description: getErrorMessage(error), variant: 'destructive' }),
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
        <CardDescription>You are signed in to Haven.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {user && (
          <div className="flex min-w-0 items-center gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent">
              <UserRound className="size-5" aria-hidden="true" />
            </span>
            <dl className="grid min-w-0 gap-0.5 text-sm">
              <dt className="sr-only">Username</dt>
              <dd className="truncate font-medium">
                {user.name ? `${user.name} (@${user.username})` : user.username}
              </dd>
              <dt className="sr-only">Email</dt>
              <dd className="truncate text-muted-foreground">{user.email}</dd>
            </dl>
          </div>
        )}
        <PendingButton
          variant="outline"
          className="w-full"
          pending={logout.isPending}
          onClick={() => logout.mutate()}
        >
          <LogOut aria-hidden="true" />
          Logout
        </PendingButton>
      </CardContent>
    </Card>
  );
}
