import { bearerOf, listen, newToken, readBody, sendJson } from './http';

/*
 * A local stand-in for Notion's public-integration OAuth and API, reached by the product only
 * through NOTION_AUTH_URL and NOTION_API_URL: pages with text blocks, search, page creation, token
 * exchange with HTTP Basic auth, revocation and rate limits on demand.
 */

interface Page {
  id: string;
  title: string;
  lines: string[];
  lastEdited: string;
  owner: string;
  parent?: string;
}

export async function startNotionDouble() {
  const pages = new Map<string, Page>();
  const tokens = new Map<string, { workspace: string; revoked: boolean }>();
  const codes = new Map<string, string>();
  const state = {
    /** Whose workspace the next consent opens. */
    consentAs: 'ws-main',
    deny: false,
    /** The Authorization header of each token exchange. */
    exchanges: [] as Array<{ authorization?: string; body: Record<string, string> }>,
    revoked: [] as string[],
    created: [] as Array<{ parent: unknown; properties: unknown; children: unknown; workspace: string }>,
    calls: [] as Array<{ path: string; workspace?: string }>,
    rateLimitNext: 0,
    retryAfterSeconds: 30,
  };
  const expectedBasic = `Basic ${Buffer.from('notion-test-client:notion-test-secret').toString('base64')}`;

  const asResult = (page: Page) => ({
    object: 'page',
    id: page.id,
    url: `https://www.notion.so/${page.id.replaceAll('-', '')}`,
    last_edited_time: page.lastEdited,
    created_time: page.lastEdited,
    archived: false,
    properties: {
      title: {
        id: 'title',
        type: 'title',
        title: [{ type: 'text', plain_text: page.title, text: { content: page.title } }],
      },
    },
    parent: page.parent ? { type: 'page_id', page_id: page.parent } : { type: 'workspace', workspace: true },
  });

  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const raw = await readBody(req);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    if (req.method === 'GET' && url.pathname === '/v1/oauth/authorize') {
      const back = new URL(url.searchParams.get('redirect_uri')!);
      if (state.deny) back.searchParams.set('error', 'access_denied');
      else {
        const code = newToken('notion-code');
        codes.set(code, state.consentAs);
        back.searchParams.set('code', code);
      }
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/v1/oauth/token') {
      state.exchanges.push({
        authorization: req.headers.authorization,
        body: body as Record<string, string>,
      });
      const workspace = codes.get(String(body.code));
      if (req.headers.authorization !== expectedBasic || !workspace)
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid code.' });
      codes.delete(String(body.code));
      const token = newToken('ntn');
      tokens.set(token, { workspace, revoked: false });
      return sendJson(res, 200, {
        access_token: token,
        token_type: 'bearer',
        bot_id: `bot-${workspace}`,
        workspace_id: workspace,
        workspace_name: 'Workspace',
        workspace_icon: null,
        owner: { type: 'user', user: { object: 'user', id: 'user-1' } },
        duplicated_template_id: null,
        request_id: 'req',
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/oauth/revoke') {
      const grant = tokens.get(String(body.token));
      if (grant) grant.revoked = true;
      state.revoked.push(String(body.token));
      return sendJson(res, 200, {});
    }
    const token = bearerOf(req);
    const grant = token ? tokens.get(token) : undefined;
    state.calls.push({ path: `${req.method} ${url.pathname}`, workspace: grant?.workspace });
    if (!grant || grant.revoked)
      return sendJson(res, 401, {
        object: 'error',
        status: 401,
        code: 'unauthorized',
        message: 'API token is invalid.',
      });
    if (state.rateLimitNext > 0) {
      state.rateLimitNext--;
      return sendJson(
        res,
        429,
        { object: 'error', status: 429, code: 'rate_limited', message: 'Rate limited' },
        { 'retry-after': String(state.retryAfterSeconds) },
      );
    }
    const mine = [...pages.values()].filter((p) => p.owner === grant.workspace);
    if (req.method === 'POST' && url.pathname === '/v1/search') {
      const query = String(body.query ?? '').toLowerCase();
      const results = mine
        .filter(
          (p) =>
            !query ||
            p.title.toLowerCase().includes(query) ||
            p.lines.join(' ').toLowerCase().includes(query),
        )
        .sort((a, b) => b.lastEdited.localeCompare(a.lastEdited))
        .slice(0, Number(body.page_size ?? 100))
        .map(asResult);
      return sendJson(res, 200, {
        object: 'list',
        results,
        has_more: false,
        next_cursor: null,
        type: 'page_or_database',
        page_or_database: {},
      });
    }
    const children = /^\/v1\/blocks\/([^/]+)\/children$/.exec(url.pathname)?.[1];
    if (req.method === 'GET' && children) {
      const page = mine.find((p) => p.id === children);
      if (!page)
        return sendJson(res, 404, {
          object: 'error',
          status: 404,
          code: 'object_not_found',
          message: 'Not found',
        });
      return sendJson(res, 200, {
        object: 'list',
        results: page.lines.map((line, i) => ({
          object: 'block',
          id: `${page.id}-b${i}`,
          type: 'paragraph',
          paragraph: { rich_text: [{ type: 'text', plain_text: line, text: { content: line } }] },
        })),
        has_more: false,
        next_cursor: null,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/pages') {
      state.created.push({
        parent: body.parent,
        properties: body.properties,
        children: body.children,
        workspace: grant.workspace,
      });
      const parent = (body.parent as { page_id?: string }).page_id;
      if (!parent || !mine.some((p) => p.id === parent))
        return sendJson(res, 404, {
          object: 'error',
          status: 404,
          code: 'object_not_found',
          message: 'Parent not found',
        });
      const title =
        (body.properties as { title?: { title?: Array<{ text?: { content?: string } }> } }).title?.title?.[0]
          ?.text?.content ?? 'Untitled';
      const page = addPage(grant.workspace, title, [], parent);
      return sendJson(res, 200, asResult(page));
    }
    sendJson(res, 404, {
      object: 'error',
      status: 404,
      code: 'object_not_found',
      message: `no route ${url.pathname}`,
    });
  });

  let seq = 0;
  function addPage(
    workspace: string,
    title: string,
    lines: string[],
    parent?: string,
    edited = new Date(),
  ): Page {
    const id = `${(++seq).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
    const page = { id, title, lines, lastEdited: edited.toISOString(), owner: workspace, parent };
    pages.set(id, page);
    return page;
  }

  return {
    state,
    env: {
      NOTION_CLIENT_ID: 'notion-test-client',
      NOTION_CLIENT_SECRET: 'notion-test-secret',
      NOTION_AUTH_URL: `${server.base}/v1/oauth/authorize`,
      NOTION_API_URL: server.base,
    },
    /** A page in `workspace` with its text lines. */
    addPage,
    revokeAll() {
      for (const grant of tokens.values()) grant.revoked = true;
    },
    stop: server.stop,
  };
}
