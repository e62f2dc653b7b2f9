import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';

/** Thrown when the environment does not describe a runnable process; the message names each variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Empty strings in the environment mean "not set", as a shell user expects. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const withDefault = <T extends z.ZodType>(schema: T, fallback: z.input<T>) =>
  z.preprocess((v) => (v === '' || v === undefined ? fallback : v), schema);

const port = z.coerce.number().int().min(0).max(65535);
const url = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => p + '//').join(' or ')}`,
  );

const secret = z.string().min(32, 'must be at least 32 characters');
const base64Key = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32 && /^[A-Za-z0-9+/]+=*$/.test(v), {
    message: 'must be 32 random bytes in base64 (openssl rand -base64 32)',
  });

/**
 * Every configuration variable of every process (docs/architecture.md, "Configuration"). One schema, so a
 * name means the same thing wherever it is read; each process reads the fields it needs.
 */
export const ConfigSchema = z.object({
  NODE_ENV: withDefault(z.enum(['development', 'production', 'test']), 'development'),
  LOG_LEVEL: withDefault(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  /** The port this process listens on: the gateway's (default 8080) or, in distributed mode, a service's. */
  PORT: optional(port),
  HOST: withDefault(z.string().min(1), '0.0.0.0'),
  /**
   * The gateway's internal port for Prometheus' `/metrics` (default 9464), apart from its public
   * port so that no public route reaches it. Services answer `/metrics` on their own (internal) port.
   */
  METRICS_PORT: optional(port),
  /**
   * Where OpenTelemetry traces go (OTLP over HTTP, e.g. http://collector:4318); unset, nothing of
   * the tracing SDK is loaded. OTEL_SERVICE_NAME overrides the service name a process reports.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(url(['http:', 'https:'])),
  APP_URL: optional(url(['http:', 'https:'])),
  DATA_DIR: withDefault(z.string().min(1), './data'),
  DATABASE_URL: optional(url(['postgres:', 'postgresql:'])),
  REDIS_URL: withDefault(url(['redis:', 'rediss:']), 'redis://127.0.0.1:6379'),
  /** Key prefix for BullMQ queues and session keys, so several stacks can share one Redis. */
  REDIS_PREFIX: withDefault(
    z.string().regex(/^[a-z0-9_-]{1,40}$/i, 'must be letters, digits, _ or -'),
    'haven',
  ),
  /** Signs session cookies: only the auth service (to sign) and the gateway (to verify) are given it. */
  JWT_SECRET: optional(secret),
  INTERNAL_SECRET: secret,
  DATA_ENCRYPTION_KEY: base64Key,
  /** Older keys still accepted for decryption after a rotation: comma-separated base64 keys. */
  DATA_ENCRYPTION_OLD_KEYS: optional(z.string()),
  SMTP_URL: optional(url(['smtp:', 'smtps:'])),
  MAIL_FROM: withDefault(z.string().min(3), 'Haven <no-reply@haven.local>'),
  /**
   * Where a person reads the mail SMTP_URL delivers when it is a local catcher (the compose stack's
   * MailDev page): the log line of each mail sent says so, so a newcomer finds their sign-up code.
   */
  MAIL_INBOX_URL: optional(url(['http:', 'https:'])),
  OPENAI_API_KEY: optional(z.string().min(1)),
  OPENAI_BASE_URL: optional(url(['http:', 'https:'])),
  OPENAI_MODEL: withDefault(z.string().min(1), 'gpt-4o-mini'),
  /**
   * How structured answers are asked for: `json_schema` (structured outputs; a request the server
   * refuses for its response_format is asked again as a JSON object) or `json_object` from the start,
   * for a server known not to support json_schema (one call per answer instead of two).
   */
  OPENAI_JSON_MODE: withDefault(z.enum(['json_schema', 'json_object']), 'json_schema'),
  /**
   * How long one model call of an assistant reply may take before it is given up (and tried once
   * more): a hanging model server is told to the user in seconds, not minutes.
   */
  OPENAI_TIMEOUT_MS: withDefault(z.coerce.number().int().min(500).max(600_000), '8000'),
  /**
   * The embeddings model for search by meaning (`nomic-embed-text` with Ollama,
   * `text-embedding-3-small` with OpenAI), at OPENAI_BASE_URL. Unset: meaning is off, and search
   * answers from the word index alone.
   */
  OPENAI_EMBEDDINGS_MODEL: optional(z.string().min(1)),
  /**
   * The memory, in MB, each thoughts process may give to the quantised vectors it keeps for search
   * by meaning (all users together, least recently searched dropped first).
   */
  MEANING_CACHE_MB: withDefault(z.coerce.number().min(1).max(65_536), '128'),
  GOOGLE_CLIENT_ID: optional(z.string().min(1)),
  GOOGLE_CLIENT_SECRET: optional(z.string().min(1)),
  GOOGLE_AUTH_URL: withDefault(url(['http:', 'https:']), 'https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: withDefault(url(['http:', 'https:']), 'https://oauth2.googleapis.com/token'),
  GOOGLE_API_ROOT_URL: withDefault(url(['http:', 'https:']), 'https://www.googleapis.com/'),
  /**
   * How many mail accounts by their servers each integrations worker process watches with IMAP IDLE
   * (one connection each): a new message there syncs at once; the rest are polled.
   */
  IMAP_IDLE_MAX: withDefault(z.coerce.number().int().min(0).max(10_000), '500'),
  /** How often each worker brings its watched accounts up to date (new ones taken, dropped ones reopened). */
  IMAP_WATCH_ROUND_MS: withDefault(z.coerce.number().int().min(100).max(600_000), '15000'),
  /**
   * Push for Gmail: the Pub/Sub topic Gmail publishes each watched mailbox's changes to
   * (`projects/<project>/topics/<topic>`, granted to gmail-api-push@system.gserviceaccount.com), and
   * the secret the topic's push subscription carries in its endpoint URL
   * (`<APP_URL>/api/push/google?token=<GMAIL_PUSH_TOKEN>`). Without both, Gmail is polled.
   */
  GMAIL_PUSH_TOPIC: optional(
    z.string().regex(/^projects\/[^/]+\/topics\/[^/]+$/, 'must read projects/<project>/topics/<topic>'),
  ),
  GMAIL_PUSH_TOKEN: optional(z.string().min(16, 'must be at least 16 characters').max(256)),
  /**
   * Where Microsoft Graph sends change notifications: `<APP_URL>/api/push/microsoft` when APP_URL
   * is https (Graph calls https only), or this address. Without one, Microsoft accounts are polled.
   */
  MICROSOFT_NOTIFICATION_URL: optional(url(['http:', 'https:'])),
  /**
   * How often an account whose provider pushes its changes is still synced, in case a notification
   * was lost (never more often than SYNC_INTERVAL_MS).
   */
  PUSH_SAFETY_INTERVAL_MS: withDefault(z.coerce.number().int().min(1000).max(86_400_000), '3600000'),
  MICROSOFT_CLIENT_ID: optional(z.string().min(1)),
  MICROSOFT_CLIENT_SECRET: optional(z.string().min(1)),
  /**
   * Microsoft's identity platform (its `authorize` and `token` live under it; `common` takes work,
   * school and personal accounts) and Graph's service root (local doubles in tests).
   */
  MICROSOFT_AUTH_URL: withDefault(
    url(['http:', 'https:']),
    'https://login.microsoftonline.com/common/oauth2/v2.0',
  ),
  MICROSOFT_GRAPH_URL: withDefault(url(['http:', 'https:']), 'https://graph.microsoft.com/v1.0'),
  SLACK_CLIENT_ID: optional(z.string().min(1)),
  SLACK_CLIENT_SECRET: optional(z.string().min(1)),
  /** Slack's consent page and Web API base (a local double in tests). */
  SLACK_AUTH_URL: withDefault(url(['http:', 'https:']), 'https://slack.com/oauth/v2/authorize'),
  SLACK_API_URL: withDefault(url(['http:', 'https:']), 'https://slack.com/api/'),
  NOTION_CLIENT_ID: optional(z.string().min(1)),
  NOTION_CLIENT_SECRET: optional(z.string().min(1)),
  /** Notion's consent page and API base (a local double in tests). */
  NOTION_AUTH_URL: withDefault(url(['http:', 'https:']), 'https://api.notion.com/v1/oauth/authorize'),
  NOTION_API_URL: withDefault(url(['http:', 'https:']), 'https://api.notion.com'),
  /** Where the gateway finds each service (distributed mode; the all-in-one launcher sets them). */
  AUTH_URL: withDefault(url(['http:', 'https:']), 'http://127.0.0.1:4001'),
  THOUGHTS_URL: withDefault(url(['http:', 'https:']), 'http://127.0.0.1:4002'),
  INSIGHTS_URL: withDefault(url(['http:', 'https:']), 'http://127.0.0.1:4003'),
  ASSISTANT_URL: withDefault(url(['http:', 'https:']), 'http://127.0.0.1:4004'),
  INTEGRATIONS_URL: withDefault(url(['http:', 'https:']), 'http://127.0.0.1:4005'),
  PORTABILITY_URL: withDefault(url(['http:', 'https:']), 'http://127.0.0.1:4006'),
  /**
   * Which hops in front of the gateway may set X-Forwarded-For (Express's `trust proxy`): unset
   * trusts none, so the client address is the socket's; `loopback`, a hop count, or addresses and
   * CIDR ranges, comma-separated (compose sets the gateway network's range).
   */
  TRUST_PROXY: optional(
    z
      .string()
      .regex(
        /^[\w.:/,\s-]+$/,
        'must be true, a hop count, loopback, or addresses/CIDR ranges, comma-separated',
      ),
  ),
  /**
   * Opens the queue dashboard at the gateway's `/ops/queues` to whoever presents it (Bearer, or as the
   * Basic password a browser asks for). Unset: no dashboard at all. Never a user session.
   */
  OPERATOR_TOKEN: optional(secret),
  /**
   * Lets the operator's dashboard retry failed jobs and remove a job (never add, edit or empty);
   * unset, it only reads.
   */
  OPERATOR_ALLOW_WRITE: withDefault(
    z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
    '0',
  ),
  /** Folder of the built SPA the gateway serves. */
  STATIC_DIR: optional(z.string().min(1)),
  /** First delay before a failed job is retried; each next one doubles. */
  JOB_BACKOFF_MS: withDefault(z.coerce.number().int().min(1).max(3_600_000), '1000'),
  /** How long a worker that died mid-job keeps its job before another worker takes it over. */
  JOB_LOCK_MS: withDefault(z.coerce.number().int().min(500).max(600_000), '30000'),
  /** How long one step of an import works before it queues the next behind other users' work. */
  IMPORT_STEP_MS: withDefault(z.coerce.number().int().min(100).max(600_000), '3000'),
  /**
   * The import sandbox (the child process that reads an uploaded zip): its heap, in MB, and how
   * long it may work on one note or journal entry. A file past either is reported and skipped; a
   * step retried after its process died gets half the heap and a quarter of the time.
   */
  IMPORT_SANDBOX_HEAP_MB: withDefault(z.coerce.number().int().min(16).max(4096), '192'),
  IMPORT_SANDBOX_TIME_MS: withDefault(z.coerce.number().int().min(100).max(600_000), '20000'),
  /**
   * Where the scheduled backups of the whole database go: a folder (a path or a file:// URL; a mounted
   * volume in compose and Kubernetes) or an S3-compatible bucket (s3://bucket/prefix). Unset: no
   * scheduled backups (`npm start` sets DATA_DIR/backups).
   */
  BACKUP_URL: optional(
    z
      .string()
      .refine(
        (v) =>
          !/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ||
          v.startsWith('file://') ||
          /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(v),
        { message: 'must be a folder (a path, or a file:// URL) or a bucket (s3://bucket/prefix)' },
      )
      .transform((v) => (v.startsWith('file://') ? new URL(v).pathname : v)),
  ),
  /**
   * The S3-compatible server of an s3:// BACKUP_URL when it is not AWS (MinIO, R2, B2, Garage…),
   * e.g. http://minio:9000. Credentials and region: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION.
   */
  BACKUP_S3_ENDPOINT: optional(url(['http:', 'https:'])),
  /**
   * The bucket's access key (the AWS SDK's own names). Unset: the SDK's default chain (its shared
   * files, a container or instance role, Kubernetes' web identity).
   */
  AWS_ACCESS_KEY_ID: optional(z.string().min(1)),
  AWS_SECRET_ACCESS_KEY: optional(z.string().min(1)),
  AWS_REGION: optional(z.string().min(1)),
  /** When backups are taken: a cron expression, in the machine's time zone (default 03:00 nightly). */
  BACKUP_CRON: withDefault(
    z.string().refine(
      (v) => {
        try {
          CronExpressionParser.parse(v);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be a cron expression, e.g. "0 3 * * *" (03:00 every night)' },
    ),
    '0 3 * * *',
  ),
  /** How many backups are kept: each new one removes the oldest beyond this number. */
  BACKUP_KEEP: withDefault(z.coerce.number().int().min(1).max(10_000), '14'),
  /**
   * Lets people connect mail servers on private, loopback or link-local addresses (a server on this
   * network). Unset, only public addresses: a person's "mail server" must not be a way into it.
   */
  MAIL_SERVERS_ALLOW_PRIVATE: withDefault(
    z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
    '0',
  ),
  /** How often each connected mail or calendar account is synced while its autoSync is on. */
  SYNC_INTERVAL_MS: withDefault(z.coerce.number().int().min(1000).max(86_400_000), '300000'),
  /**
   * Serve the service's routes from this process. `false` makes a worker-only process: it runs the
   * queue workers, reconcilers and periodic tasks, and answers only /healthz and /readyz.
   */
  RUN_API: withDefault(
    z.enum(['true', 'false']).transform((v) => v === 'true'),
    'true',
  ),
  /** Run the service's queue workers in this process (a deployment may run them separately). */
  RUN_WORKERS: withDefault(
    z.enum(['true', 'false']).transform((v) => v === 'true'),
    'true',
  ),
});
export type Config = z.infer<typeof ConfigSchema>;

/**
 * Parses the environment. A missing or malformed variable throws a ConfigError naming it and saying
 * what is expected, never echoing a secret's value.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const message = issue.code === 'invalid_type' && env[name] === undefined ? 'is required' : issue.message;
    return `  ${name}: ${message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/**
 * Throws a ConfigError naming each of `names` the configuration lacks: settings only some processes
 * need (JWT_SECRET for the gateway and auth) are checked by those processes at start-up.
 */
export function requireSettings(config: Config, names: ReadonlyArray<keyof Config>): void {
  const missing = names.filter((name) => config[name] === undefined);
  if (missing.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${missing.map((n) => `  ${n}: is required`).join('\n')}`);
  }
}

/** The product's public address (e-mailed links, OAuth callbacks), without a trailing slash. */
export function appUrl(config: Pick<Config, 'APP_URL' | 'PORT'>): string {
  return (config.APP_URL ?? `http://localhost:${config.PORT ?? 8080}`).replace(/\/$/, '');
}
