import { useState, type FormEvent } from 'react';

import { useConnectCalendarServer } from '../api/connect-server';
import { ConnectFooter, SignInHead, TextField, UserField, useSignIn } from './server-form-parts';

/**
 * Connecting a calendar by its CalDAV server: a known provider (its address filled in) or any other
 * server's address, the e-mail address invitations name, and an app password. The server signs in
 * and finds the calendars before it keeps anything; what it answered shows here.
 */
export function CalendarServerForm() {
  const signIn = useSignIn();
  const [url, setUrl] = useState('');
  const connect = useConnectCalendarServer({
    mutationConfig: signIn.outcome('CalDAV integration connected'),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    connect.mutate({ ...signIn.body(), ...(signIn.preset ? {} : { url: url.trim() }) });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Connect a calendar">
      <SignInHead signIn={signIn} />
      {signIn.choice === 'other' && (
        <>
          <TextField
            id={`${signIn.id}-url`}
            label="Calendar server’s address"
            type="url"
            inputMode="url"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="https://dav.example.com/"
            value={url}
            onChange={setUrl}
          />
          <UserField signIn={signIn} />
        </>
      )}
      <ConnectFooter
        problems={signIn.problems}
        pending={connect.isPending}
        what="Haven signs in and finds your calendars before it keeps anything. The password is stored encrypted and used only to read invitations, answer them and add the events you approve."
      />
    </form>
  );
}
