import {
  MAIL_PRESETS,
  type MailPresetId,
  type MailServer,
  type ServerSecurity,
} from '@haven/contracts/mail-servers';
import { AlertTriangle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';

import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PendingButton } from '@/components/ui/pending-button';
import { toast } from '@/hooks/use-toast';
import { HttpError } from '@haven/contracts/client';

import { getErrorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useConnectMailServer } from '../api/connect-mail-server';

type Choice = MailPresetId | 'other';
const CHOICES: Array<[Choice, string]> = [
  ...(Object.entries(MAIL_PRESETS) as Array<[MailPresetId, { name: string }]>).map(
    ([id, preset]) => [id, preset.name] as [Choice, string],
  ),
  ['other', 'Other'],
];

const SECURITY: Array<[ServerSecurity, string]> = [
  ['tls', 'TLS'],
  ['starttls', 'STARTTLS'],
  ['none', 'None'],
];

/** Which server each problem the server reports is about, in words. */
const SERVER_WORDS: Record<string, string> = { imap: 'Reading mail (IMAP)', smtp: 'Sending mail (SMTP)' };

interface ServerFields {
  host: string;
  port: string;
  security: ServerSecurity;
}
const EMPTY_IMAP: ServerFields = { host: '', port: '993', security: 'tls' };
const EMPTY_SMTP: ServerFields = { host: '', port: '465', security: 'tls' };

const toServer = (fields: ServerFields): MailServer => ({
  host: fields.host.trim(),
  port: Number(fields.port),
  security: fields.security,
});

/** One server's name, port and security, for 'Other'. */
function ServerInputs({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: ServerFields;
  onChange: (value: ServerFields) => void;
}) {
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2 rounded-lg border p-3">
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-host`}>Server</Label>
        <Input
          id={`${id}-host`}
          value={value.host}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder="mail.example.com"
          onChange={(e) => onChange({ ...value, host: e.target.value })}
        />
      </div>
      <div className="flex gap-2">
        <div className="flex w-24 flex-col gap-1">
          <Label htmlFor={`${id}-port`}>Port</Label>
          <Input
            id={`${id}-port`}
            inputMode="numeric"
            value={value.port}
            onChange={(e) => onChange({ ...value, port: e.target.value.replace(/\D/g, '').slice(0, 5) })}
          />
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <Label htmlFor={`${id}-security`}>Security</Label>
          <select
            id={`${id}-security`}
            value={value.security}
            onChange={(e) => onChange({ ...value, security: e.target.value as ServerSecurity })}
            className="h-11 rounded-lg border border-input bg-card px-3 text-base text-foreground"
          >
            {SECURITY.map(([security, words]) => (
              <option key={security} value={security}>
                {words}
              </option>
            ))}
          </select>
        </div>
      </div>
    </fieldset>
  );
}

/**
 * Connecting a mail account by its servers: a known provider (its servers filled in) or any other,
 * the address and an app password. The server signs in to both servers before it keeps anything,
 * and what each answered shows here; what was typed stays for another try.
 */
export function MailServerForm({ onConnected }: { onConnected?: () => void }) {
  const id = useId();
  const [choice, setChoice] = useState<Choice>('fastmail');
  const [address, setAddress] = useState('');
  const [password, setPassword] = useState('');
  const [user, setUser] = useState('');
  const [imap, setImap] = useState(EMPTY_IMAP);
  const [smtp, setSmtp] = useState(EMPTY_SMTP);
  const [problems, setProblems] = useState<string[]>([]);
  const connect = useConnectMailServer({
    mutationConfig: {
      onSuccess: () => {
        setPassword('');
        setProblems([]);
        toast({ title: 'IMAP integration connected' });
        onConnected?.();
      },
      onError: (error) => {
        const issues = error instanceof HttpError ? (error.body?.issues ?? []) : [];
        setProblems(
          issues.length
            ? issues.map((i) => `${SERVER_WORDS[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`)
            : [getErrorMessage(error)],
        );
      },
    },
  });
  const preset = choice === 'other' ? undefined : MAIL_PRESETS[choice];

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblems([]);
    connect.mutate({
      address: address.trim(),
      password,
      ...(user.trim() ? { user: user.trim() } : {}),
      ...(preset ? { preset: choice as MailPresetId } : { imap: toServer(imap), smtp: toServer(smtp) }),
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Connect a mail account">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Your mail provider</legend>
        <div className="grid grid-cols-2 gap-2">
          {CHOICES.map(([value, name]) => (
            <label
              key={value}
              className={cn(
                'flex min-h-11 cursor-pointer items-center justify-center rounded-lg border px-3 text-sm font-medium transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/40',
                choice === value ? 'border-accent bg-accent/10 text-foreground' : 'text-muted-foreground',
              )}
            >
              <input
                type="radio"
                name={`${id}-provider`}
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
                className="sr-only"
              />
              {name}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-address`}>E-mail address</Label>
        <Input
          id={`${id}-address`}
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-password`}>App password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="off"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
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
            'Your mail server’s password, or an app password if your provider offers them.'
          )}
        </p>
      </div>

      {choice === 'other' && (
        <>
          <div className="flex flex-col gap-1">
            <Label htmlFor={`${id}-user`}>User name (if not the address)</Label>
            <Input
              id={`${id}-user`}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              value={user}
              onChange={(e) => setUser(e.target.value)}
            />
          </div>
          <ServerInputs legend="Incoming mail (IMAP)" value={imap} onChange={setImap} />
          <ServerInputs legend="Outgoing mail (SMTP)" value={smtp} onChange={setSmtp} />
        </>
      )}

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

      <PendingButton type="submit" pending={connect.isPending}>
        {connect.isPending ? 'Signing in…' : 'Connect'}
      </PendingButton>
      <p className="text-xs text-muted-foreground">
        Haven signs in to both servers before it keeps anything. The password is stored encrypted and used
        only to read your mail and send what you approve.
      </p>
    </form>
  );
}
