/**
 * Trying a mail account's servers before they are saved: IMAP (imapflow) signs in and finds the Sent
 * and Drafts folders by SPECIAL-USE; SMTP (nodemailer) signs in. What goes wrong is said in words a
 * person can act on (the name, the port, TLS, the password), with the server's own answer.
 */
import { isIP } from 'node:net';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import type { MailServer, ServerCheck, ServerProblem } from '@haven/contracts/mail-servers';

export interface ServerLogin {
  server: MailServer;
  user: string;
  password: string;
}

export interface CheckOptions {
  /** How long a server may take to answer each step (connect, greeting, sign-in). */
  timeoutMs?: number;
  /** Trust certificates no authority signed (a server on one's own network); default no. */
  allowUntrustedCertificate?: boolean;
  /**
   * The address to connect to, resolved and checked beforehand (see address-guard.ts); the server's
   * name still names it to TLS and its certificate.
   */
  address?: string;
  /**
   * The connection waits in IDLE for the server's news (see imap-watch.ts): the IDLE is renewed
   * every two minutes (RFC 2177 asks for under 29) and a quiet socket is given five.
   */
  idle?: boolean;
}

/** An IMAP account that signed in, with the folders its server marks for sent mail and drafts. */
export interface ImapCheck extends ServerCheck {
  folders?: { sent: string | null; drafts: string | null };
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Certificates checked against the server's name (SNI only for a name: RFC 6066 forbids an address). */
const tlsOptions = (host: string, options: CheckOptions) => ({
  rejectUnauthorized: !options.allowUntrustedCertificate,
  ...(isIP(host) ? {} : { servername: host }),
});

/** The server's words, on one line and not too long to show. */
function said(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = text
    // eslint-disable-next-line no-control-regex -- a server's control characters are what is removed
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line ? line.slice(0, 300) : undefined;
}

const TLS_CODES = /^(ERR_SSL_|EPROTO$|ECONNRESET$|ERR_TLS_)|ClosedAfterConnectTLS|UPGRADE_TIMEOUT/;
const CERTIFICATE_CODES =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID)$/;

interface Failure {
  code?: string;
  message?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
  responseText?: string;
  response?: string;
  responseCode?: number;
  command?: string;
}

const fail = (problem: ServerProblem, message: string, serverSaid?: string): ServerCheck => ({
  ok: false,
  problem,
  message,
  ...(serverSaid ? { serverSaid } : {}),
});

/** The server refused the sign-in: busy, or the user name or password; null when it did not. */
function signInFailure(e: Failure): ServerCheck | null {
  if (e.serverResponseCode === 'UNAVAILABLE' || e.responseCode === 454)
    return fail(
      'server-error',
      'The server could not check the password just now: try again in a moment.',
      said(e.responseText ?? e.response),
    );
  if (e.authenticationFailed || e.code === 'EAUTH' || e.responseCode === 535)
    return fail(
      'wrong-password',
      'The server refused the user name or password. iCloud, Fastmail, Yahoo and Gmail want an app password here, not the account’s own.',
      said(e.responseText ?? e.response),
    );
  return null;
}

/**
 * No connection, or none kept: the name, the port, the certificate, no answer in time, TLS; null
 * when the failure is none of these.
 */
function connectionFailure(e: Failure, server: MailServer, timeoutMs: number): ServerCheck | null {
  const { host, port, security } = server;
  const code = e.code ?? '';
  const at = `${host} on port ${port}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EDNS')
    return fail('host-not-found', `No server answers to the name ${host}: check its spelling.`);
  if (code === 'ECONNREFUSED')
    return fail('refused', `${host} refuses connections on port ${port}: check the port.`);
  if (CERTIFICATE_CODES.test(code))
    return fail(
      'certificate',
      `The certificate ${host} presents is not trusted (${code.toLowerCase().replace(/_/g, ' ')}): check the server’s name.`,
    );
  if (/TIMEOUT$|^ETIMEDOUT$/.test(code))
    return fail(
      'no-answer',
      `No answer from ${at} within ${Math.round(timeoutMs / 1000)} s: check the port, and that the server is up.`,
    );
  if (TLS_CODES.test(code) || /wrong version number|STARTTLS/i.test(e.message ?? ''))
    return fail(
      'tls-refused',
      `${at} did not accept a ${security === 'starttls' ? 'STARTTLS' : 'TLS'} connection: check the port and the security (TLS, STARTTLS or none).`,
    );
  if (/^(ESOCKET|ECONNECTION|NoConnection|EConnectionClosed)$/.test(code))
    return fail('no-answer', `${at} closed the connection: check the port, and that the server is up.`);
  return null;
}

/** What a failed connection or sign-in was, from the error the client raised. */
export function describeFailure(err: unknown, login: ServerLogin, timeoutMs: number): ServerCheck {
  const e = (err ?? {}) as Failure;
  const known = signInFailure(e) ?? connectionFailure(e, login.server, timeoutMs);
  if (known) return known;
  const words = said(e.responseText ?? e.response ?? e.message);
  return fail('server-error', `The server answered with an error${words ? `: ${words}` : ''}.`, words);
}

/** An IMAP client for these settings (not yet connected); its socket errors are the caller's to see. */
export function imapClient(login: ServerLogin, options: CheckOptions = {}): ImapFlow {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { host, port, security } = login.server;
  const client = new ImapFlow({
    host: options.address ?? host,
    port,
    secure: security === 'tls',
    // STARTTLS required when asked for, never tried when not: no silent downgrade either way.
    doSTARTTLS: security === 'starttls' ? true : security === 'none' ? false : undefined,
    auth: { user: login.user, pass: login.password },
    logger: false,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: options.idle ? 300_000 : timeoutMs * 2,
    ...(options.idle ? { maxIdleTime: 120_000 } : {}),
    tls: tlsOptions(host, options),
  });
  // A socket error after a failure is already answered (the command rejects); it must not go unhandled.
  client.on('error', () => undefined);
  return client;
}

/** An SMTP transport for these settings. */
export function smtpTransport(login: ServerLogin, options: CheckOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { host, port, security } = login.server;
  return nodemailer.createTransport({
    host: options.address ?? host,
    port,
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    auth: { user: login.user, pass: login.password },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: options.idle ? 300_000 : timeoutMs * 2,
    ...(options.idle ? { maxIdleTime: 120_000 } : {}),
    tls: tlsOptions(host, options),
  });
}

/** The folders a server marks for sent mail and drafts (RFC 6154 SPECIAL-USE). */
export async function specialFolders(
  client: ImapFlow,
): Promise<{ sent: string | null; drafts: string | null }> {
  const mailboxes = await client.list();
  const marked = (use: string) => mailboxes.find((m) => m.specialUse === use)?.path ?? null;
  return { sent: marked('\\Sent'), drafts: marked('\\Drafts') };
}

/** Signs in over IMAP and finds the Sent and Drafts folders; logs out. */
export async function checkImap(login: ServerLogin, options: CheckOptions = {}): Promise<ImapCheck> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = imapClient(login, options);
  try {
    await client.connect();
    const folders = await specialFolders(client);
    await client.logout();
    return { ok: true, message: `Signed in to ${login.server.host}.`, folders };
  } catch (err) {
    return describeFailure(err, login, timeoutMs);
  } finally {
    client.close();
  }
}

/** Signs in over SMTP (no mail is sent). */
export async function checkSmtp(login: ServerLogin, options: CheckOptions = {}): Promise<ServerCheck> {
  const transport = smtpTransport(login, options);
  try {
    await transport.verify();
    return { ok: true, message: `Signed in to ${login.server.host}.` };
  } catch (err) {
    return describeFailure(err, login, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  } finally {
    transport.close();
  }
}
