import { Eye, EyeOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';

import { FormField } from '@/components/ui/form-field';
import type { FieldProps } from '@/lib/use-zod-form';

interface PasswordFieldProps {
  label: ReactNode;
  /** `current` signs in or confirms (the browser fills the saved one); `new` chooses one (it offers to generate and save). */
  purpose: 'current' | 'new';
  /** The props from `useZodForm().register(field)`. */
  field: FieldProps;
  error?: string | undefined;
  /** Content on the label's line, right-aligned (the login form's 'Forgot password?'). */
  labelAside?: ReactNode;
}

/**
 * Every password input of the app: the right `autocomplete` for password managers, and a button to
 * show what was typed (on a phone keyboard a typo is easy and invisible).
 */
export function PasswordField({ purpose, ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <FormField
      {...props}
      type={visible ? 'text' : 'password'}
      autoComplete={purpose === 'new' ? 'new-password' : 'current-password'}
      inputClassName="pr-12"
      inputAside={
        <button
          type="button"
          aria-controls={props.field.id}
          onClick={() => setVisible((v) => !v)}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {visible ? (
            <EyeOff aria-hidden="true" className="size-5" />
          ) : (
            <Eye aria-hidden="true" className="size-5" />
          )}
          {/* Text, not aria-label: the name stays 'Show password' without the field matching it as a label. */}
          <span className="sr-only">{visible ? 'Hide password' : 'Show password'}</span>
        </button>
      }
    />
  );
}
