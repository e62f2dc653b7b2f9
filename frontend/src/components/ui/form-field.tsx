import type { ReactNode } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import type { FieldProps } from '@/lib/use-zod-form';
import { cn } from '@/lib/utils';

interface FormFieldProps {
  label: ReactNode;
  /** The props from `useZodForm().register(field)`. */
  field: FieldProps;
  /** The field's first validation message, shown under it. */
  error?: string | undefined;
  /** Announce the message as it appears (`role="alert"`): for an answer from the server. */
  alert?: boolean;
  /** Content placed on the label's line, right-aligned (e.g. a 'Forgot password?' link). */
  labelAside?: ReactNode;
  /** A control inside the input's right end (e.g. a password's show/hide button); give the input room. */
  inputAside?: ReactNode;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'text' | 'email' | 'numeric';
  maxLength?: number;
  disabled?: boolean;
  className?: string;
  inputClassName?: string;
}

/** Input settings shared by every e-mail field. */
export const EMAIL_INPUT = {
  type: 'email',
  autoComplete: 'email',
  inputMode: 'email',
  placeholder: 'you@example.com',
} as const satisfies Partial<FormFieldProps>;

/** A labelled input with its validation message, wired with `aria-invalid` and `aria-describedby`. */
export function FormField({
  label,
  field,
  error,
  labelAside,
  inputAside,
  className,
  inputClassName,
  alert,
  ...input
}: FormFieldProps) {
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={field.id}>{label}</Label>
        {labelAside}
      </div>
      {inputAside ? (
        <div className="relative">
          <Input {...field} {...input} className={inputClassName} />
          {inputAside}
        </div>
      ) : (
        <Input {...field} {...input} className={inputClassName} />
      )}
      {error && (
        <p
          id={field['aria-describedby']}
          role={alert ? 'alert' : undefined}
          className="text-sm text-destructive dark:text-red-400"
        >
          {error}
        </p>
      )}
    </div>
  );
}
