import { calendarContract } from '@haven/contracts/calendar';
import { integrationsContract } from '@haven/contracts/integrations';
import { integrationsInternalContract } from '@haven/contracts/internal';
import { mailContract } from '@haven/contracts/mail';
import { integrationsPortabilityContract } from '@haven/contracts/portability';
import { workspaceContract } from '@haven/contracts/workspace';
import { AppError } from '@haven/kit/errors';
import { implement, redirect, reply } from '@haven/kit/http';
import type { Assist } from '../domain/assist';
import type { Integrations } from '../domain/integrations';
import type { Contacts } from '../domain/mail/contacts';
import type { FollowUps } from '../domain/mail/follow-ups';
import type { ServerAccounts } from '../domain/mail/server-accounts';
import type { Workspace } from '../domain/workspace/workspace';

/** Connecting and managing accounts, and the OAuth callbacks. */
export function integrationsRoutes(
  integrations: Integrations,
  serverAccounts: ServerAccounts,
  appUrl: string,
) {
  /** Where the server callback sends the browser back: the Integrations screen, saying how it went. */
  const back = (outcome: { ok: boolean; provider: string; type?: string; message: string }) => {
    const query = new URLSearchParams({
      integration: outcome.ok ? 'success' : 'error',
      provider: outcome.provider,
      ...(outcome.type ? { type: outcome.type } : {}),
      message: outcome.message,
    });
    return redirect(`${appUrl}/integrations?${query}`);
  };

  return implement(integrationsContract, {
    providers: () => ({ providers: integrations.providers() }),
    list: ({ userId, query }) => integrations.list(userId, query),
    connectMailServer: async ({ userId, body }) => reply(201, await serverAccounts.connect(userId, body)),
    connectCalendarServer: async ({ userId, body }) =>
      reply(201, await serverAccounts.connectCalendar(userId, body)),
    remove: async ({ userId, params }) => {
      await integrations.remove(userId, params.id);
      return { success: true, message: 'Integration disconnected' };
    },
    updateSettings: ({ userId, params, body }) => integrations.updateSettings(userId, params.id, body),
    startAuth: async ({ userId, params, body }) => ({
      authUrl: await integrations.authUrl(userId, params.provider, body.type),
    }),
    directAuth: async ({ userId, params, query }) => ({
      authUrl: await integrations.authUrl(userId, params.provider, query.type, query.redirect),
    }),
    authRedirect: async ({ userId, params, query }) => {
      // A browser navigation: a refusal goes back to the Integrations screen, never a JSON page.
      try {
        return redirect(await integrations.authUrl(userId, params.provider, query.type));
      } catch (err) {
        if (err instanceof AppError)
          return back({ ok: false, provider: params.provider, type: query.type, message: err.message });
        throw err;
      }
    },
    authComplete: ({ userId, params, body }) =>
      integrations.complete(userId, params.provider, body.code, body.state),
    oauthCallback: async ({ userId, params: { provider }, query }) => {
      // Public: the provider sends the browser here. The state names the user; a session, when
      // the browser carries one, must be that same user.
      if (query.error) return back({ ok: false, provider, message: query.error });
      if (!query.code || !query.state)
        return back({ ok: false, provider, message: 'Missing required OAuth parameters' });
      try {
        const connected = await integrations.complete(userId ?? null, provider, query.code, query.state);
        return back({ ok: true, provider, type: connected.type, message: 'Connected' });
      } catch (err) {
        if (err instanceof AppError && err.status < 500)
          return back({ ok: false, provider, message: err.message });
        throw err;
      }
    },
  });
}

/**
 * The Assist screen's digest, follow-ups and invitations, reply drafts, and the actions taken only on the
 * user's explicit request: sending mail, saving drafts, creating events and answering invitations.
 */
export function assistRoutes(
  integrations: Integrations,
  assist: Assist,
  workspace: Workspace,
  followUps: FollowUps,
  contacts: Contacts,
) {
  return [
    implement(mailContract, {
      emails: ({ userId, query }) => assist.digest(userId, query.timezoneOffset),
      email: ({ userId, params, query }) => assist.email(userId, params.id, query.timezoneOffset),
      waiting: ({ userId }) => followUps.list(userId),
      emailDraft: ({ userId, body }) => assist.draft(userId, body),
      sendEmail: ({ userId, query, body }) => integrations.sendEmail(userId, body, query.draft),
    }),
    implement(calendarContract, {
      calendar: ({ userId }) => assist.calendar(userId),
      createEvent: async ({ userId, body }) => reply(201, await integrations.createEvent(userId, body)),
      rsvp: ({ userId, params, body }) => assist.rsvp(userId, params.id, body),
    }),
    implement(integrationsInternalContract, {
      digest: ({ userId, query }) => assist.digest(userId, query.timezoneOffset),
      waiting: ({ userId }) => followUps.list(userId),
      calendarEvents: ({ userId }) => assist.calendar(userId),
      connections: ({ userId }) => workspace.connections(userId),
      slackMentions: ({ userId }) => workspace.mentions(userId),
      notionSearch: ({ userId, query }) => workspace.notionSearch(userId, query.q),
      knownContacts: async ({ userId, body }) => ({ known: await contacts.known(userId, body.addresses) }),
    }),
    implement(integrationsPortabilityContract, {
      exportIntegrations: async ({ userId }) =>
        (await integrations.list(userId, {})).map(
          ({ provider, type, settings, contextualRules, createdAt }) => {
            const { error: _error, ...kept } = settings;
            return { provider, type, settings: kept, contextualRules, createdAt };
          },
        ),
    }),
    implement(workspaceContract, {
      more: ({ userId }) => workspace.more(userId),
      notionPages: ({ userId, query }) => workspace.notionPages(userId, query.q),
      saveToNotion: async ({ userId, body }) => reply(201, await workspace.saveToNotion(userId, body)),
    }),
  ];
}
