import { z } from 'zod';

import { VerificationCode } from '@haven/contracts/auth';
import { FormField } from '@/components/ui/form-field';
import { PendingButton } from '@/components/ui/pending-button';
import { useZodForm } from '@/lib/use-zod-form';

const CodeForm = z.object({ code: VerificationCode });

interface VerifyCodeFormProps {
  onSubmit: (code: string) => void;
  pending: boolean;
  /** Why the server refused the last code: shown under the field, which stays for a retry. */
  error?: string | undefined;
  /** Called as the code changes (the refusal no longer applies to it). */
  onEdit?: () => void;
}

/** The 6-digit code field; anything but digits is dropped as it is typed or pasted. */
export function VerifyCodeForm({ onSubmit, pending, error, onEdit }: VerifyCodeFormProps) {
  const form = useZodForm(CodeForm, { code: '' });
  const registered = form.register('code');
  const invalid = form.errorOf('code');
  const shown = invalid ?? error;
  const field = shown
    ? { ...registered, 'aria-invalid': true, 'aria-describedby': form.errorId('code') }
    : registered;

  return (
    <form
      noValidate
      aria-label="Verify"
      onSubmit={form.handleSubmit(({ code }) => onSubmit(code))}
      className="flex flex-col gap-4"
    >
      <FormField
        label="Verification Code"
        field={{
          ...field,
          onChange: (event) => {
            form.setValue('code', event.target.value.replace(/\D/g, ''));
            onEdit?.();
          },
        }}
        error={shown}
        alert={!invalid}
        inputMode="numeric"
        maxLength={6}
        autoComplete="one-time-code"
        placeholder="000000"
        disabled={pending}
        // Letter spacing also trails the last digit; the wider left padding re-centres the code.
        inputClassName="h-14 pl-6 text-center font-mono text-2xl tracking-[0.5em]"
      />
      <PendingButton type="submit" size="lg" className="w-full" pending={pending}>
        Verify
      </PendingButton>
    </form>
  );
}
