import type { MailServer, ServerSecurity } from '@haven/contracts/mail-servers';
import { useId, useState, type FormEvent } from 'react';

import { Label } from '@/components/ui/label';
import { useConnectMailServer } from '../api/connect-server';
import { ConnectFooter, SignInHead, TextField, UserField, useSignIn } from './server-form-parts';

const SECURITY: Array<[ServerSecurity, string]> = [
  ['tls', 'TLS'],
  ['starttls', 'STARTTLS'],
  ['none', 'None'],
];

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
      <TextField
        id={`${id}-host`}
        label="Server"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        placeholder="mail.example.com"
        value={value.host}
        onChange={(host) => onChange({ ...value, host })}
      />
      <div className="flex gap-2">
        <TextField
          id={`${id}-port`}
          label="Port"
          className="w-24"
          inputMode="numeric"
          value={value.port}
          onChange={(port) => onChange({ ...value, port: port.replace(/\D/g, '').slice(0, 5) })}
        />
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
export function MailServerForm() {
  const signIn = useSignIn();
  const [imap, setImap] = useState(EMPTY_IMAP);
  const [smtp, setSmtp] = useState(EMPTY_SMTP);
  const connect = useConnectMailServer({ mutationConfig: signIn.outcome('IMAP integration connected') });

  function submit(event: FormEvent) {
    event.preventDefault();
    connect.mutate({
      ...signIn.body(),
      ...(signIn.preset ? {} : { imap: toServer(imap), smtp: toServer(smtp) }),
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Connect a mail account">
      <SignInHead signIn={signIn} />
      {signIn.choice === 'other' && (
        <>
          <UserField signIn={signIn} />
          <ServerInputs legend="Incoming mail (IMAP)" value={imap} onChange={setImap} />
          <ServerInputs legend="Outgoing mail (SMTP)" value={smtp} onChange={setSmtp} />
        </>
      )}
      <ConnectFooter
        problems={signIn.problems}
        pending={connect.isPending}
        what="Haven signs in to both servers before it keeps anything. The password is stored encrypted and used only to read your mail and send what you approve."
      />
    </form>
  );
}
