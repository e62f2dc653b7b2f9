import addressparser from 'nodemailer/lib/addressparser';

/*
 * Mail that a machine sent: mailing lists, newsletters, notices, receipts, auto-replies, bounces.
 * Each rule is small and named, so a verdict can say why (the model's prompt and the tests read the
 * names). The rules read what Gmail's `messages.get` (format=full) already answers: every header,
 * the labels, and the body's text.
 */

/** What the rules read of one message. */
export interface MachineInput {
  /** Every header of the message, as Gmail lists them (name case as sent). */
  headers: Array<{ name?: string | null; value?: string | null }>;
  labelIds: string[];
  fromAddress: string;
  /** Addresses in To and Cc, lower-cased. */
  recipients: string[];
  subject: string;
  /**
   * The body's text without quoted replies and forwarded mail (footers kept); read only when
   * nothing else says a machine sent the message (splitting a body costs the most).
   */
  text: () => string;
  /** MIME types of the message's parts, with their parameters (`text/calendar; method=REPLY`). */
  partTypes: string[];
}

type Rule = (input: MachineInput, header: (name: string) => string | undefined) => boolean;

/** `local@domain` split, lower-cased; empty parts when there is no address. */
function split(address: string | undefined): { local: string; domain: string } {
  const at = (address ?? '').lastIndexOf('@');
  if (at < 0) return { local: '', domain: '' };
  return { local: address!.slice(0, at).toLowerCase(), domain: address!.slice(at + 1).toLowerCase() };
}

const firstAddress = (value: string | undefined) =>
  value ? (addressparser(value, { flatten: true })[0]?.address?.toLowerCase() ?? '') : '';

/** Gmail's tabs for mail that is not a person writing to the user. */
const CATEGORY_LABELS = new Set([
  'CATEGORY_PROMOTIONS',
  'CATEGORY_SOCIAL',
  'CATEGORY_UPDATES',
  'CATEGORY_FORUMS',
]);

/** RFC 2369 and RFC 2919 list headers. */
const LIST_HEADERS = [
  'list-id',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'list-post',
  'list-help',
  'list-subscribe',
  'list-owner',
  'list-archive',
];

/** What list servers add besides the RFC headers (Mailman, ezmlm, LISTSERV, Yahoo/Google Groups). */
const LIST_SERVER_HEADERS = [
  'x-beenthere',
  'x-mailman-version',
  'mailing-list',
  'x-mailing-list',
  'x-list',
  'x-list-administrivia',
  'x-ezmlm-version',
  'x-google-group-id',
  'x-yahoo-newman-property',
];

/** Headers that bulk and transactional e-mail services add to what they send. */
const ESP_HEADER =
  /^(x-(mailchimp|mc-user|mcda|sg-|sendgrid|mailgun|ses-|campaign|mailjet|pm-message-id|postmark|sfmc|marketo|mkt|hubspot|sib-|mailin-|emarsys|rpcampaign|csa-complaints|report-abuse|msfbl|listmember|mailer-recptid|cmae|ctct|iterable|braze|klaviyo|customerio|mandrill|mdrcpt|msys|sparkpost|eloqua|exacttarget|jobid|mid-|rext|ems-|newsletter))/i;

/** X-Mailer values of bulk and scripted mailers (a person's mail client is none of these). */
const BULK_MAILER =
  /accucast|listmanager|lyris|mailchimp|mailman|majordomo|listserv|phplist|sendblaster|groupmail|campaign|constant ?contact|emaildirect|strongmail|exacttarget|mailjet|sendinblue|mailerlite|aweber|getresponse|icontact|interspire|oempro|mailwizz|acymailing|mass ?mail|bulk|newsletter|\bphp\/|phpmailer|mime::lite|swiftmailer|zend_mail|groups message poster|egroups|topica|marketo|eloqua|salesforce/i;

/** How local parts of list servers and their robots begin (a `Sender:` of this kind is a list). */
const LIST_ROBOT_START = /^(owner-|bounces?[-+]|listserv$|mailman$|majordomo|lyris|list(master|admin)?$)/;
/**
 * How they end. Only the part after the last line break can end so (`.` stops at one), and only
 * that part is searched: on the whole local part, `-bounces?(\+.*)?$` ran to the line break from
 * each `-bounce+`, in the square of its length.
 */
const LIST_ROBOT_END = /(-owner|-request|-bounces?(\+.*)?|-admin|-l)$/;

/** A local part of a list server or one of its robots. */
export const listRobotLocal = (local: string) =>
  LIST_ROBOT_START.test(local) || LIST_ROBOT_END.test(local.slice(lastLineBreak(local) + 1));

/** The index of a string's last line terminator (`\n`, `\r`, U+2028, U+2029), -1 when none. */
function lastLineBreak(text: string): number {
  let at = text.length - 1;
  while (at >= 0 && !'\n\r\u2028\u2029'.includes(text[at]!)) at--;
  return at;
}
/** Domains of list servers. */
const LIST_DOMAIN = /^(lists?|listserv|listserver|mailman|groups?|googlegroups|yahoogroups)\./;

/** Local parts that machines send from. */
const MACHINE_LOCAL =
  /^(no[-_.]?reply|do[-_.]?not[-_.]?reply|donotreply|notifications?|notify|mailer[-_.]?daemon|postmaster|bounces?|newsletters?|news|alerts?|automated|auto[-_.]?confirm|system|daemon|mailer|listserv|majordomo|lyris|rss(feeds)?|feeds?|digest|updates?|marketing|promo(tions)?|offers|deals|receipts?|orders?|billing|invoices?)([-_.+].*)?$/;

/** Labels of a sender's (or return path's) domain that only mailing machines use. */
const MACHINE_DOMAIN_LABEL =
  /^(newsletters?|mailers?|mailings?|bounces?|returns?|lists?|listserv|marketing|promo(tions)?|campaigns?|notifications?|alerts?|e?mail\d+|em\d+|.*smtp\d*)$/;

/**
 * A VERP local part, `…[+-]list=example.com` (`/[+-][a-z0-9._-]+=[a-z0-9-]+(\.[a-z0-9-]+)+$/i`). Only
 * the last `=` can be followed by a domain to the end, so the domain is checked there, and the
 * `[+-]` looked for in the run before it, once: as a RegExp, every `-` of a run of them read the
 * run again.
 */
export function isVerp(local: string): boolean {
  const equals = local.lastIndexOf('=');
  if (equals < 0 || !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(local.slice(equals + 1))) return false;
  // The run of `[a-z0-9._-]` before the `=`: a `-` inside it (not its last character) or a `+` or
  // `-` just before it opens the VERP part.
  let start = equals;
  while (start > 0 && /[a-z0-9._-]/i.test(local[start - 1]!)) start--;
  if (start === equals) return false;
  return local[start - 1] === '+' || local.slice(start, equals - 1).includes('-');
}

/**
 * A local part that encodes data rather than naming someone: VERP (`list-bounces+me=example.com`),
 * or a run of ids (`Online#3.19584.83-p1SYlJ1blFvQjRRR.1`). A forwarder's SRS address
 * (`SRS0=hash=tt=example.com=ann`) is a person's mail passed on, not a machine's. Senders' own
 * addresses get the stricter test: people put years and numbers in theirs.
 */
function encodedLocal(local: string, strict = false): boolean {
  if (/^srs[01][=+-]/i.test(local)) return false;
  if (isVerp(local)) return true;
  const digits = local.replace(/\D/g, '').length;
  const groups = local.split(/[._#=-]/).filter((g) => /\d/.test(g)).length;
  return strict
    ? (local.length >= 20 && groups >= 4) || (local.length >= 30 && digits >= 10)
    : local.length >= 24 && (digits >= 8 || groups >= 3);
}

/** A list's address among the recipients (`spamassassin-devel@lists.example`, `fork@xent.com` is not). */
const LIST_ADDRESS =
  /(^|[-_.])(list|lists|users|devel|dev|talk|announce|discuss|general|members|group|forum|l)@|@(lists?|listserv|groups?|mailman)\.|@(googlegroups|yahoogroups)\.com$/;

/** Subjects of out-of-office and other automatic replies, in English, German, French, Spanish. */
const AUTO_REPLY_SUBJECT =
  /^\s*(automatic reply|auto(matic)?[- ]?(reply|response)|out of (the )?office|abwesenheitsnotiz|automatische antwort|abwesend|réponse automatique|absence du bureau|respuesta automática|fuera de la oficina)\b/i;

/** Subject tags of mail that is not from a list (security gateways, urgency, drafts). */
const NOT_LIST_TAGS =
  /^(ext|external|extern|externe?|externo|urgent|urgente|dringend|important|wichtig|draft|entwurf|brouillon|borrador|secure|encrypt(ed)?|confidential|vertraulich|spam|suspected spam|possible spam|caution|warning|action required|fyi|reminder|personal|private|privat|internal|intern|ot|off[- ]topic|\d+|#\d+|[a-z]+-\d+)$/i;
/**
 * Reply and forward prefixes in the languages the asks rules know, any number of them. The white
 * space before a `[2]` is in the optional part with it (`\s*(\[\d+\])?\s*` read a run of spaces
 * again from each of its characters).
 */
export const REPLY_PREFIX = /^\s*((re|aw|fw|fwd|wg|tr|rv|sv|antw|enc|rif|r)(\s*\[\d+\])?\s*:\s*)*/i;

/** Subjects that calendars write when someone answers an invitation. */
const CALENDAR_ANSWER =
  /^\s*(accepted|declined|tentative(ly accepted)?|zugesagt|abgelehnt|mit vorbehalt( angenommen)?|angenommen|accepté|refusé|provisoire|acceptée?|aceptado|aceptada|rechazado|rechazada|provisional|tentativo)\s*:/i;

/**
 * Footers and notices that only machine-sent mail carries, in English, German, French, Spanish.
 * Where a line may begin with white space, it is white space other than a line break
 * (`^[^\S\n\r\u2028\u2029]*`, the same lines as `^\s*` found): `^\s*` crossed blank lines, and was
 * tried from every one of them. `\s*(is|of|:|#)?\s*` became `\s*((is|of|:|#)\s*)?`, the same
 * strings without two runs of white space sharing one.
 */
export const MACHINE_TEXT: Array<[string, RegExp]> = [
  [
    'unsubscribe-text',
    /(to|here to|you (can|may)) unsubscribe|unsubscribe (here|from (this|these|our|the|future)|at any time|link|below|instructions|information)|^[^\S\n\r\u2028\u2029]*unsubscribe\b|\bunsubscribe:|(no longer|not) (wish|want) to receive|\bopt[- ]out\b|\/mailman\/listinfo\/|(newsletter )?abbestellen|abmelden (können|möchten|klicken)|vous désinscrire|se désinscrire|vous désabonner|se désabonner|darse de baja|darte de baja|cancelar (la |tu )?suscripci/im,
  ],
  [
    'no-reply-text',
    /(do not|don't|please don't|please do not) (reply|respond) (to )?(this|to this)|not monitored|antworten sie nicht auf diese|bitte nicht (auf diese (e-?mail|nachricht) )?antworten|ne (pas )?répondez pas à ce|merci de ne pas répondre|ne pas répondre à ce|no respondas? (a )?este|por favor,? no responda/i,
  ],
  [
    'automated-text',
    /(this|the) (e-?mail|message|notification) (was|has been|is) (automatically generated|sent automatically|generated automatically|auto-generated|sent to you because|sent to [^\s]+@)|(you are|you're) receiving this (e-?mail|message)|you received this (e-?mail|message)|this is an automated (message|notification|e-?mail|response)|automatisch (generiert|erstellt|versendet)|automatically (generated|sent)|généré automatiquement|envoyé automatiquement|generado automáticamente|enviado automáticamente/i,
  ],
  [
    'browser-view-text',
    /view (this|it|the) (e-?mail|message|newsletter)? ?(online|in (your|a) (web )?browser)|(can't|cannot|having trouble) (read|see|view)(ing)? this (e-?mail|message)|im browser (anzeigen|ansehen|öffnen)|version en ligne|afficher dans (votre|le) navigateur|ver (en|este correo en) (el|tu) navegador/i,
  ],
  [
    'order-number-text',
    /(order|booking|confirmation|invoice|bestell|buchungs|rechnungs|commande|réservation|facture|pedido|reserva|factura)[ -]?(number|nummer|no\.?|nr\.?|#|numéro|n°|número|núm\.?)\s*((is|of|:|#)\s*)?[a-z]{0,4}[-#]?\d[\d-]{3,}/i,
  ],
];

/** Subjects of receipts and confirmations that shops and services send. */
const RECEIPT_SUBJECT =
  /\b(order|booking|reservation|payment|purchase|shipping|delivery) (confirmation|confirmed|received|receipt)|\byour (receipt|invoice|order)\b|\breceipt (for|from)\b|bestellbestätigung|buchungsbestätigung|zahlungsbestätigung|ihre (bestellung|rechnung)|versandbestätigung|confirmation de (commande|réservation|paiement)|votre (commande|facture|reçu)|confirmación de (pedido|reserva|pago|compra)|tu (pedido|recibo|factura)/i;

/** Every rule on what is not the body, by name, in the order a verdict lists them. */
const RULES: Array<[string, Rule]> = [
  ['gmail-category', ({ labelIds }) => labelIds.some((label) => CATEGORY_LABELS.has(label))],
  ['list-headers', (_m, header) => LIST_HEADERS.some((name) => header(name) !== undefined)],
  ['list-server-headers', (_m, header) => LIST_SERVER_HEADERS.some((name) => header(name) !== undefined)],
  [
    'auto-submitted',
    (_m, header) => {
      const value = header('auto-submitted')?.trim().toLowerCase();
      return (value !== undefined && value !== '' && value !== 'no') || header('x-autoreply') !== undefined;
    },
  ],
  ['precedence', (_m, header) => /^\s*(bulk|list|junk|auto_reply)\b/i.test(header('precedence') ?? '')],
  [
    'list-sender',
    ({ fromAddress }, header) => {
      const sender = firstAddress(header('sender'));
      if (!sender || sender === fromAddress) return false;
      const { local, domain } = split(sender);
      return listRobotLocal(local) || LIST_DOMAIN.test(domain) || encodedLocal(local);
    },
  ],
  ['x-loop', (_m, header) => header('x-loop') !== undefined],
  [
    'bounce-return-path',
    (_m, header) => {
      const { local, domain } = split(firstAddress(header('return-path')));
      if (!local) return false;
      return (
        /(^|[-_.+])bounces?([-_.+=]|$)|^bounce|^(owner-|sentto-)|-(owner|request|errors?)$/.test(local) ||
        encodedLocal(local) ||
        domain
          .split('.')
          .slice(0, -2)
          .some((label) => /^(bounces?|returns?|mailer|bulk)$/.test(label))
      );
    },
  ],
  // Auto-replies by their subject. X-Auto-Response-Suppress (MS-OXCMAIL) is no sign of one:
  // Exchange sets it on people's mail too, asking others not to answer it automatically.
  ['auto-reply', ({ subject }) => AUTO_REPLY_SUBJECT.test(subject)],
  // Gmail's feedback loop header, which Google asks bulk senders to set.
  ['feedback-id', (_m, header) => header('feedback-id') !== undefined],
  ['esp-headers', ({ headers }) => headers.some((h) => ESP_HEADER.test(h.name ?? ''))],
  ['bulk-mailer', (_m, header) => BULK_MAILER.test(header('x-mailer') ?? '')],
  [
    // A list's `[tag]`, in mail that went to a list's address too (a person's "[Photos]" did not).
    'list-subject-tag',
    ({ subject, recipients }) => {
      const tag = /^\[([^\]]{2,40})\]/.exec(subject.replace(REPLY_PREFIX, ''))?.[1]?.trim();
      return tag !== undefined && !NOT_LIST_TAGS.test(tag) && recipients.some((r) => LIST_ADDRESS.test(r));
    },
  ],
  [
    'machine-sender',
    ({ fromAddress }) => {
      const { local, domain } = split(fromAddress);
      if (!local) return false;
      return (
        MACHINE_LOCAL.test(local) ||
        listRobotLocal(local) ||
        encodedLocal(local, true) ||
        domain
          .split('.')
          .slice(0, -2)
          .some((label) => MACHINE_DOMAIN_LABEL.test(label))
      );
    },
  ],
  [
    'delivery-report',
    ({ partTypes }, header) =>
      header('x-failed-recipients') !== undefined ||
      partTypes.some((type) =>
        /^(multipart\/report|message\/delivery-status|message\/disposition-notification)/i.test(type),
      ),
  ],
  [
    'calendar-answer',
    ({ subject, partTypes }) =>
      CALENDAR_ANSWER.test(subject) ||
      partTypes.some((type) => /^text\/calendar\b.*\bmethod="?(reply|cancel)\b/i.test(type)),
  ],
  [
    'receipt-subject',
    ({ subject }) =>
      RECEIPT_SUBJECT.test(subject.replace(REPLY_PREFIX, '')) && !/^\s*(re|aw)\s*:/i.test(subject),
  ],
];

/**
 * The names of the machine signals a message shows (empty: nothing says a machine sent it). Gmail's
 * category labels count when they are there; everything else is read from the message itself, its
 * body's footers last and only when nothing else has spoken.
 */
export function machineSignals(input: MachineInput): string[] {
  const byName = new Map<string, string>();
  for (const h of input.headers) {
    const name = h.name?.toLowerCase();
    if (name && !byName.has(name)) byName.set(name, h.value ?? '');
  }
  const header = (name: string) => byName.get(name);
  const found = RULES.filter(([, rule]) => rule(input, header)).map(([name]) => name);
  if (found.length > 0) return found;
  const text = input.text();
  return MACHINE_TEXT.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}
