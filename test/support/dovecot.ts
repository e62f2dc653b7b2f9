/**
 * A real IMAP server for the tests: Debian's Dovecot (`apt-get install dovecot-imapd`; `.ci/run`
 * installs it), started on a free local port with a configuration of its own in a temporary folder:
 * one account per `users` entry with a password, Maildir mailboxes, and Drafts and Sent folders
 * marked by SPECIAL-USE as real providers mark them. Plain IMAP on 127.0.0.1, and an implicit-TLS
 * port with a self-signed certificate when `tls` is asked for.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { freePort } from '@haven/kit/net';
import { startDaemon } from './daemon';

export const DOVECOT = '/usr/sbin/dovecot';

/** Whether this machine has Dovecot (the tests that need it say so when it is missing). */
export const hasDovecot = (): boolean => existsSync(DOVECOT);

export interface Dovecot {
  host: string;
  /** Plain IMAP (STARTTLS not offered). */
  port: number;
  /** Implicit TLS (a self-signed certificate), when started with `tls`. */
  tlsPort?: number;
  /** The server's log, for a failed test's message. */
  log(): string;
  /** A user's Maildir folder (the inbox's messages and Dovecot's UID list and index files). */
  maildir(user: string): string;
  stop(): Promise<void>;
}

function config(dir: string, ports: { imap: number; imaps: number }, tls: boolean): string {
  const asRoot = process.getuid?.() === 0;
  // As root, mail belongs to nobody (Dovecot refuses uid 0 for mail); otherwise to whoever runs it.
  const uid = asRoot ? 65534 : process.getuid!();
  const gid = asRoot ? 65534 : process.getgid!();
  const self = userInfo().username;
  return `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
${asRoot ? '' : `default_internal_user = ${self}\ndefault_login_user = ${self}\ndefault_internal_group = ${userInfo().gid}`}
${tls ? `ssl = yes\nssl_cert = <${dir}/cert.pem\nssl_key = <${dir}/key.pem` : 'ssl = no'}
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${dir}/home/%u
}
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${ports.imap}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tls ? ports.imaps : 0}
  }
  chroot =
}
service anvil {
  chroot =
}
`;
}

/** Starts Dovecot with these accounts (address → password). */
export async function startDovecot(
  users: Record<string, string>,
  options: { tls?: boolean } = {},
): Promise<Dovecot> {
  const dir = mkdtempSync(path.join(tmpdir(), 'haven-dovecot-'));
  // Dovecot's own processes (its auth, as the dovecot user when started by root) read in here.
  chmodSync(dir, 0o755);
  const tls = options.tls ?? false;
  const ports = { imap: await freePort(), imaps: tls ? await freePort() : 0 };
  mkdirSync(path.join(dir, 'home'), { recursive: true });
  writeFileSync(
    path.join(dir, 'users'),
    Object.entries(users)
      .map(([user, password]) => `${user}:{PLAIN}${password}\n`)
      .join(''),
  );
  if (tls)
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
  const conf = path.join(dir, 'dovecot.conf');
  writeFileSync(conf, config(dir, ports, tls));
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', '65534:65534', path.join(dir, 'home')]);
  const log = () =>
    existsSync(path.join(dir, 'dovecot.log')) ? readFileSync(path.join(dir, 'dovecot.log'), 'utf8') : '';
  const daemon = await startDaemon('Dovecot', DOVECOT, ['-F', '-c', conf], ports.imap, log);
  return {
    host: '127.0.0.1',
    port: ports.imap,
    tlsPort: tls ? ports.imaps : undefined,
    log,
    maildir: (user) => path.join(dir, 'home', user, 'Maildir'),
    async stop() {
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
