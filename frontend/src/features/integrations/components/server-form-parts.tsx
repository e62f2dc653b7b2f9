import { MAIL_PRESETS, type MailPreset, type MailPresetId } from '@haven/contracts/mail-servers';
import { HttpError } from '@haven/contracts/client';
import { AlertTriangle } from 'lucide-react';
import { useId, useState, type ComponentProps, type ReactNode } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';

/** A provider whose servers are known, or 'other' (the person types them). */
export type Choice = MailPresetId | 'other';

export const presetOf = (choice: Choice): MailPreset | undefined =>
  choice === 'other' ? undefined : MAIL_PRESETS[choice];

const CHOICES: Array<[Choice, string]> = [
  ...(Object.entries(MAIL_PRESETS) as Array<[MailPresetId, MailPreset]>).map(
    ([id, preset]) => [id, preset.name] as [Choice, string],
  ),
  ['other', 'Other'],
];

/** Which server each problem the server reports is about, in words. */
const SERVER_WORDS: Record<string, string> = {
  imap: 'Reading mail (IMAP)',
  smtp: 'Sending mail (SMTP)',
  caldav: 'Calendar (CalDAV)',
};

/** What a failed connection says, one line per server that refused. */
export function problemsOf(error: unknown): string[] {
  const issues = error instanceof HttpError ? (error.body?.issues ?? []) : [];
  return issues.length
    ? issues.map((i) => `${SERVER_WORDS[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`)
    : [getErrorMessage(error)];
}

/** The provider's buttons: Fastmail, iCloud, Yahoo, Other (44 px targets, a radio group). */
export function PresetChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: Choice;
  onChange: (value: Choice) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">Your provider</legend>
      <div className="grid grid-cols-2 gap-2">
        {CHOICES.map(([choice, label]) => (
          <label
            key={choice}
            className={cn(
              'flex min-h-11 cursor-pointer items-center justify-center rounded-lg border px-3 text-sm font-medium transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/40',
              value === choice ? 'border-accent bg-accent/10 text-foreground' : 'text-muted-foreground',
            )}
          >
            <input
              type="radio"
              name={name}
              value={choice}
              checked={value === choice}
              onChange={() => onChange(choice)}
              className="sr-only"
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A labelled text input (the forms' fields that are not the password). */
export function TextField({
  id,
  label,
  value,
  onChange,
  ...props
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
} & Omit<ComponentProps<'input'>, 'id' | 'value' | 'onChange'>) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...props} />
    </div>
  );
}

/** The address and the app password, with where the provider makes one. */
export function SignInFields({
  id,
  preset,
  address,
  password,
  onAddress,
  onPassword,
}: {
  id: string;
  preset: MailPreset | undefined;
  address: string;
  password: string;
  onAddress: (value: string) => void;
  onPassword: (value: string) => void;
}) {
  return (
    <>
      <TextField
        id={`${id}-address`}
        label="E-mail address"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        value={address}
        onChange={onAddress}
      />
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-password`}>App password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="off"
          value={password}
          onChange={(e) => onPassword(e.target.value)}
          aria-describedby={`${id}-password-help`}
        />
        <p id={`${id}-password-help`} className="text-xs text-muted-foreground">
          {preset ? (
            <>
              Make one for Haven in your {preset.name} account’s security settings:{' '}
              <a
                href={preset.appPasswords}
                target="_blank"
                rel="noreferrer"
                className="font-medium break-all text-foreground underline underline-offset-2"
              >
                {new URL(preset.appPasswords).host}
              </a>
            </>
          ) : (
            'Your server’s password, or an app password if your provider offers them.'
          )}
        </p>
      </div>
    </>
  );
}

/** What the servers answered, the Connect button, and what happens to the password. */
export function ConnectFooter({
  problems,
  pending,
  what,
}: {
  problems: string[];
  pending: boolean;
  what: ReactNode;
}) {
  return (
    <>
      {problems.length > 0 && (
        <div
          role="alert"
          className="flex gap-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-900 dark:text-amber-200"
        >
          <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <ul className="flex flex-col gap-1">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      <PendingButton type="submit" pending={pending}>
        {pending ? 'Signing in…' : 'Connect'}
      </PendingButton>
      <p className="text-xs text-muted-foreground">{what}</p>
    </>
  );
}

/**
 * What every server form shares: the provider, the address, the app password, the user name, and
 * what the server answered. The password is cleared once connected; the rest stays for another try.
 */
export function useSignIn() {
  const id = useId();
  const [choice, setChoice] = useState<Choice>('fastmail');
  const [address, setAddress] = useState('');
  const [password, setPassword] = useState('');
  const [user, setUser] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const preset = presetOf(choice);
  return {
    id,
    choice,
    preset,
    problems,
    state: { address, password, user, setChoice, setAddress, setPassword, setUser },
    /** The request's sign-in part: a preset's id, or nothing (the form adds its servers). */
    body: () => ({
      address: address.trim(),
      password,
      ...(user.trim() ? { user: user.trim() } : {}),
      ...(preset ? { preset: choice as MailPresetId } : {}),
    }),
    /** The mutation's outcome: the toast `connected`, or the servers' answers listed. */
    outcome: (connected: string) => ({
      onMutate: () => setProblems([]),
      onSuccess: () => {
        setPassword('');
        toast({ title: connected });
      },
      onError: (error: Error) => setProblems(problemsOf(error)),
    }),
  };
}
export type SignIn = ReturnType<typeof useSignIn>;

/** The provider, the address and the app password. */
export function SignInHead({ signIn }: { signIn: SignIn }) {
  const { id, choice, preset, state } = signIn;
  return (
    <>
      <PresetChoice name={`${id}-provider`} value={choice} onChange={state.setChoice} />
      <SignInFields
        id={id}
        preset={preset}
        address={state.address}
        password={state.password}
        onAddress={state.setAddress}
        onPassword={state.setPassword}
      />
    </>
  );
}

/** The user name, for 'Other' (a server that signs in with something else than the address). */
export function UserField({ signIn }: { signIn: SignIn }) {
  return (
    <TextField
      id={`${signIn.id}-user`}
      label="User name (if not the address)"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      value={signIn.state.user}
      onChange={signIn.state.setUser}
    />
  );
}
