/** A message as the mail worker sends it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escape(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escape(action.label)}</a></p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:480px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${escape(title)}</h1>${body}${button}<p style="color:#666;font-size:12px">Haven — your private thought journal.</p></body></html>`;
}

/** The registration e-mail: the 6-digit code, and a link that verifies in one tap. */
export function verificationMail(
  to: string,
  name: string,
  code: string,
  link: string,
  minutes: number,
): MailMessage {
  const greeting = `Hi ${name},`;
  return {
    to,
    subject: `Your Haven verification code: ${code}`,
    text: `${greeting}\n\nYour Haven verification code is ${code}\n\nIt expires in ${minutes} minutes. You can also verify by opening this link:\n${link}\n\nIf you did not create a Haven account, ignore this e-mail.\n`,
    html: layout(
      'Verify your e-mail',
      [
        escape(greeting),
        `Your Haven verification code is <strong style="font-size:22px;letter-spacing:4px">${code}</strong>`,
        `It expires in ${minutes} minutes. You can also verify with the button below.`,
        'If you did not create a Haven account, ignore this e-mail.',
      ],
      { label: 'Verify my e-mail', url: link },
    ),
  };
}

/** The password reset e-mail. */
export function resetMail(to: string, name: string, link: string, minutes: number): MailMessage {
  const greeting = `Hi ${name},`;
  return {
    to,
    subject: 'Reset your Haven password',
    text: `${greeting}\n\nSomeone asked to reset the password of your Haven account. To choose a new one, open this link within ${minutes} minutes:\n${link}\n\nIf it was not you, ignore this e-mail: your password stays as it is.\n`,
    html: layout(
      'Reset your password',
      [
        escape(greeting),
        `Someone asked to reset the password of your Haven account. The link works once, for ${minutes} minutes.`,
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ],
      { label: 'Choose a new password', url: link },
    ),
  };
}

/**
 * Sent instead of a code when someone registers with an address that already has an account: the
 * registration form answers the same either way, so only the owner learns of it.
 */
export function registrationAttemptMail(
  to: string,
  name: string,
  loginUrl: string,
  resetUrl: string,
): MailMessage {
  const greeting = `Hi ${name},`;
  return {
    to,
    subject: 'Someone tried to register with your e-mail',
    text: `${greeting}\n\nSomeone just tried to create a Haven account with this e-mail address. You already have one, so nothing was created.\n\nLog in: ${loginUrl}\nForgot your password? ${resetUrl}\n\nIf it was not you, ignore this e-mail: your account is unchanged.\n`,
    html: layout(
      'Someone tried to register with your e-mail',
      [
        escape(greeting),
        'Someone just tried to create a Haven account with this e-mail address. You already have one, so nothing was created.',
        `Forgot your password? <a href="${escape(resetUrl)}">Reset it here</a>.`,
        'If it was not you, ignore this e-mail: your account is unchanged.',
      ],
      { label: 'Log in to Haven', url: loginUrl },
    ),
  };
}
