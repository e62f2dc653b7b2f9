import { Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';

import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { PendingButton } from '@/components/ui/pending-button';
import { paths } from '@/config/paths';
import { useDeleteAccount } from '@/features/auth/api/delete-account';
import { PasswordField } from '@/features/auth/components/password-field';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';

/**
 * 'Delete account' (Settings → Privacy, 'Your data'): asks for the password, then signs out
 * everywhere while every service deletes the user's data, as the privacy policy promises.
 */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const passwordId = useId();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const remove = useDeleteAccount({
    mutationConfig: {
      onSuccess: () => {
        toast({
          title: 'Account deleted',
          description: 'Your account and all of its data are being deleted.',
        });
        navigate(paths.welcome.path, { replace: true });
      },
      onError: (err) => setError(getErrorMessage(err)),
    },
  });

  return (
    <div className="flex flex-col gap-2 border-t border-border pt-3">
      <p className="text-xs text-muted-foreground">
        Deleting your account removes your thoughts, insights, conversations and connected accounts from every
        part of Haven. This cannot be undone.
      </p>
      <Button variant="destructive" className="h-11 w-full sm:h-10" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden="true" />
        Delete account
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) {
            setPassword('');
            setError(null);
          }
        }}
      >
        <DialogContent showCloseButton>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>
              Everything you keep in Haven will be deleted and your connected accounts disconnected. Enter
              your password to confirm.
            </DialogDescription>
          </DialogHeader>
          <form
            className="flex flex-col gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              setError(null);
              remove.mutate(password);
            }}
          >
            <PasswordField
              label="Password"
              purpose="current"
              field={{
                id: passwordId,
                name: 'password',
                value: password,
                onChange: (e) => setPassword(e.target.value),
                onBlur: () => undefined,
                'aria-invalid': error !== null,
                'aria-describedby': error ? `${passwordId}-error` : undefined,
              }}
            />
            {/* The server's answer (a wrong password) is announced, unlike a field's own hint. */}
            {error && (
              <p
                id={`${passwordId}-error`}
                role="alert"
                className="text-sm text-destructive dark:text-red-400"
              >
                {error}
              </p>
            )}
            <DialogFooter className="mt-2 flex-row justify-end">
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <PendingButton
                type="submit"
                variant="destructive"
                pending={remove.isPending}
                disabled={!password}
              >
                Delete account
              </PendingButton>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
