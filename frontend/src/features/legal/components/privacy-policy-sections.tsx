import type { ReactNode } from 'react';

/** The ten sections of the policy, in order (spec 2). Kept as data so the page only lays them out. */
export const PRIVACY_SECTIONS: { title: string; body: ReactNode }[] = [
  {
    title: 'Introduction',
    body: (
      <p>
        Haven is a personal reflection assistant: you capture thoughts by voice or keyboard, receive AI
        insights about them, chat with an assistant and, if you choose, connect your mail, calendar and other
        tools. This policy explains what we collect, why, and the choices you have. By using Haven you agree
        to it.
      </p>
    ),
  },
  {
    title: 'Information We Collect',
    body: (
      <ul>
        <li>
          Account details: your username, optional name, email address and a salted argon2id password hash
          (never the password itself).
        </li>
        <li>
          Content you create: thoughts with their category, tags and date, voice recordings you choose to
          attach, and your conversations with the assistant.
        </li>
        <li>Content Haven derives for you: daily, weekly and monthly insights, email digests and drafts.</li>
        <li>
          Connected-service data: the access tokens for the services you connect and the mail and calendar
          items Haven reads to show you.
        </li>
        <li>Settings: your privacy preferences and theme. A session cookie keeps you signed in.</li>
      </ul>
    ),
  },
  {
    title: 'How We Use Your Information',
    body: (
      <ul>
        <li>To store your thoughts and show them back to you, by day and by search.</li>
        <li>
          To generate insights, answer your questions in conversations and prepare drafts you asked for.
        </li>
        <li>To show your email digest and calendar invitations from the services you connected.</li>
        <li>To send account email: verification codes and password reset links.</li>
        <li>To keep the service secure, for example by limiting repeated sign-in attempts.</li>
      </ul>
    ),
  },
  {
    title: 'AI Processing and Security',
    body: (
      <>
        <p>
          Your thoughts, messages, insights, mail content and connection tokens are encrypted at rest with
          AES-256-GCM. Data travels between your browser and Haven over encrypted connections.
        </p>
        <p>
          AI features use an OpenAI-compatible provider, and only when one is configured for the service. Only
          the text needed for the request you made is sent. Thought content is used in suggestions only while
          &ldquo;Include thought content in suggestions&rdquo; is on in Settings. The assistant never sends an
          email without your review and confirmation.
        </p>
      </>
    ),
  },
  {
    title: 'Third-Party Integrations',
    body: (
      <p>
        Haven connects to Google (mail and calendar), Slack and Notion only when you start the connection
        yourself, and only with the permissions you grant on the provider&apos;s own consent screen. You can
        disconnect any integration at any time in Haven, and revoke access from your provider account too.
        Data from these services is used only to provide the features you see.
      </p>
    ),
  },
  {
    title: 'Your Rights',
    body: (
      <p>
        You can view, edit and delete your thoughts and conversations, change your privacy preferences,
        disconnect integrations, and ask us for a copy of your data or for your account to be deleted.
        Depending on where you live, you may have further rights to access, correct, restrict or object to the
        processing of your personal data.
      </p>
    ),
  },
  {
    title: 'Data Retention',
    body: (
      <p>
        We keep your content for as long as your account exists. Deleted thoughts and conversations are
        removed permanently. Unverified sign-ups and reset links expire after a short time, and sessions after
        30 days. When your account is deleted, your thoughts, insights, conversations and connection tokens
        are deleted with it.
      </p>
    ),
  },
  {
    title: "Children's Privacy",
    body: (
      <p>
        Haven is not directed to children under 13, and we do not knowingly collect personal information from
        them. If you believe a child has given us information, contact us and we will delete it.
      </p>
    ),
  },
  {
    title: 'Changes to This Policy',
    body: (
      <p>
        We may update this policy as Haven changes. When we do, we will change the date at the top of this
        page, and we will tell you in the app or by email about changes that matter.
      </p>
    ),
  },
  {
    title: 'Contact Us',
    body: (
      <p>
        Questions or requests about your privacy? Write to us at{' '}
        <a
          href="mailto:privacy@haven.app"
          className="font-medium text-accent underline-offset-4 hover:underline"
        >
          privacy@haven.app
        </a>
        .
      </p>
    ),
  },
];
