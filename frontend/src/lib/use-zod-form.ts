import { useId, useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import type { z } from 'zod';

type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** The first message zod reports for each top-level field. */
function firstErrors<F extends string>(issues: readonly z.core.$ZodIssue[]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && !(field in errors)) errors[field as F] = issue.message;
  }
  return errors;
}

/** What `register(field)` spreads onto an `<input>`: value, handlers and the a11y wiring. */
export interface FieldProps {
  id: string;
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/**
 * A small form state hook validated by a zod schema (the shared contracts). Errors show after a field
 * is first left (then follow every keystroke) and for every field once a submit was tried. Only the
 * first message per field is kept. `handleSubmit` calls `onValid` with the schema's parsed output.
 */
export function useZodForm<S extends z.ZodType, F extends string>(
  schema: S,
  initialValues: Record<F, string>,
) {
  const formId = useId();
  const [values, setValues] = useState(initialValues);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const result = useMemo(() => schema.safeParse(values), [schema, values]);
  const allErrors = useMemo<FieldErrors<F>>(
    () => (result.success ? {} : firstErrors<F>(result.error.issues)),
    [result],
  );

  const fieldId = (field: F) => `${formId}-${field}`;
  const errorId = (field: F) => `${fieldId(field)}-error`;
  const errorOf = (field: F): string | undefined =>
    submitted || touched[field] ? allErrors[field] : undefined;

  function setValue(field: F, value: string) {
    setValues((prev) => ({ ...prev, [field]: value }));
  }

  function register(field: F): FieldProps {
    const error = errorOf(field);
    return {
      id: fieldId(field),
      name: field,
      value: values[field],
      onChange: (event) => setValue(field, event.target.value),
      onBlur: () => setTouched((prev) => (prev[field] ? prev : { ...prev, [field]: true })),
      'aria-invalid': Boolean(error),
      'aria-describedby': error ? errorId(field) : undefined,
    };
  }

  function handleSubmit(onValid: (data: z.output<S>) => void) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setSubmitted(true);
      if (result.success) {
        onValid(result.data);
        return;
      }
      // Move focus to the first field that needs fixing, in the order the form lists them.
      const first = (Object.keys(values) as F[]).find((field) => allErrors[field]);
      if (first) document.getElementById(fieldId(first))?.focus();
    };
  }

  function reset(next: Record<F, string> = initialValues) {
    setValues(next);
    setTouched({});
    setSubmitted(false);
  }

  return { values, register, errorOf, errorId, setValue, handleSubmit, reset };
}
