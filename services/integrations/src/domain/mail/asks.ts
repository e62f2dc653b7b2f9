import { LinearRegExp } from './linear-regexp';
import { PARSED_CHARS, replyFragments } from './reply-parser';

/*
 * Whether a person's e-mail asks something of its reader: a question to them, a request, an
 * invitation to confirm, a deadline. Read from the message's own new text only (quoted replies,
 * forwarded mail and the signature removed), in English, German, French and Spanish. Thank-yous,
 * congratulations and FYIs ask nothing, and an offer ("let me know if you need anything") is not a
 * request.
 */

/**
 * Where a reply or a forward quotes other mail, for clients the reply parser does not know. Each is
 * tried only where a line starts and reads a few lines from there at most: linear in a text whose
 * lines end in `\n` (see LINEAR_QUOTE_MARKERS for the others).
 */
const QUOTE_MARKERS = [
  // Outlook, Lotus Notes, Gmail and Apple Mail separators, in the four languages.
  /^[ \t>]*-{2,}\s*(original message|forwarded (message|by)|weitergeleitete nachricht|ursprüngliche nachricht|message d'origine|message transféré|mensaje original|mensaje reenviado)/im,
  /^[ \t>]*(begin forwarded message|anfang der weitergeleiteten nachricht|début du message (réexpédié|transféré)|inicio del mensaje reenviado)\s*:/im,
  // An Outlook header block: From:/Von:/De: with Sent:/Gesendet:/Envoyé:/Enviado: or To: below it.
  /^[ \t>*]*(from|von|de|da|van)\s?:[^\n]*\n([^\n]*\n){0,3}?[ \t>*]*(sent|date|gesendet|datum|envoyé|enviado|fecha|to|an|à|para|subject|betreff|objet|asunto)\s?:/im,
  // Lotus Notes: the author, the date and time, then To:.
  /^[^\n]*\n[ \t]*\d{1,2}\/\d{1,2}\/\d{2,4}[ \t]+\d{1,2}:\d{2}([ \t]*[ap]m)?[ \t]*\n([^\n]*\n)?[ \t]*(to|please respond to)\s*:/im,
  /^[^\n]*\bon \d{1,2}\/\d{1,2}\/\d{2,4}[ \t]+\d{1,2}:\d{2}([ \t]*[ap]m)?[ \t]*\n([^\n]*\n){0,2}?[ \t]*(to|please respond to)\s*:/im,
];

/**
 * The markers for a text in which a line can begin with no `\n` before it: under the `m` flag a
 * line also begins after `\r`, U+2028 and U+2029, which `[^\n]*` runs past, so that from each of a
 * million U+2028 a marker read on to the next `\n`. LinearRegExp reads such a text (rare: `\r` is
 * gone by then) in linear time, with the same matches.
 */
const LINEAR_QUOTE_MARKERS = QUOTE_MARKERS.map((marker) => new LinearRegExp(marker, { groups: 0 }));

/** The text above the first quote marker (the whole text when there is none). */
function beforeQuotes(text: string): string {
  const markers = /[\r\u2028\u2029]/.test(text) ? LINEAR_QUOTE_MARKERS : QUOTE_MARKERS;
  let end = text.length;
  for (const marker of markers) {
    const at = marker.exec(text)?.index;
    if (at !== undefined && at < end) end = at;
  }
  return text.slice(0, end);
}

/**
 * How much of a body is analysed at all (split, read for asks and for machines' footers): 64 Ki
 * characters, some thirty screens. What a person asks is in the first screens of a mail; a body
 * longer than this is a newsletter (whose List-* headers say so first), a log or an attack. Every
 * step below is linear anyway: this bounds their total.
 */
export const ANALYSED_CHARS = 65_536;

/** A body's text split into what the sender wrote now and what else it carries. */
export interface TextParts {
  /** The sender's own new text: quoted replies, forwarded mail and the signature removed. */
  own: string;
  /** The text without quoted replies and forwarded mail; signature and footers kept. */
  unquoted: string;
}

/**
 * Splits the first ANALYSED_CHARS of a body's text as email-reply-parser does (its quote headers in
 * a dozen languages, `>` lines and signatures; reply-parser.ts, its linear port), after cutting at
 * the separators of Outlook and Lotus Notes that it does not know.
 */
export function splitText(text: string): TextParts {
  const head = beforeQuotes(text.slice(0, ANALYSED_CHARS).replace(/\r\n?/g, '\n'));
  const fragments = replyFragments(head);
  const join = (keep: (f: (typeof fragments)[number]) => boolean) =>
    fragments
      .filter(keep)
      .map((f) => f.content)
      .join('\n')
      .trim();
  return {
    own: join((f) => !f.hidden),
    // Past what the parser reads, the rest is kept as it is (a long newsletter's footer is there).
    unquoted: [join((f) => !f.quoted), head.slice(PARSED_CHARS)].join('\n'),
  };
}

/** A letter of the four languages (Latin, with its accented letters), a digit or `_`. */
const LETTER = '[A-Za-z0-9_\\u00C0-\\u024F]';
/**
 * The pattern with `\b` and `\w` knowing accented letters (JavaScript's are ASCII-only, so `\bêtes`
 * would never match and `\bte\b` would match inside "fête"). A `\b` after a letter or a group is a
 * word's end, any other a word's start: one lookaround each, which keeps the patterns fast.
 */
function u(re: RegExp): RegExp {
  const source = re.source
    .replace(/(^|[\s\S])\\b/g, (_m, before: string) =>
      /[A-Za-z0-9_\u00C0-\u024F)\]?*+}']/.test(before) ? `${before}(?!${LETTER})` : `${before}(?<!${LETTER})`,
    )
    .replace(/\\w/g, LETTER);
  return new RegExp(source, re.flags);
}

/**
 * Greetings that are questions only in form ("Hi Anna, how are you"): a greeting or none, `,` or
 * `!` or neither, white space, then one of the phrases, which ends the sentence. As a RegExp
 * (`^(hi|dear [^,!?]+)?[,!]?\s*(how are you|…)$`) the name after "dear" and the space before the
 * phrase overlap, which backtracks in the square of a run of spaces; `isPleasantry` reads it in one
 * pass instead.
 */
interface Pleasantry {
  /** Greetings said alone ("hi"), each anchored at the start. */
  greetings: RegExp[];
  /** A greeting followed by a name ("dear "): the name runs to a `,`, `!` or `?`. */
  salutation: RegExp;
  /** The phrases, each the whole of what it is tested on. */
  phrases: RegExp;
  /** Spanish opens the question with `¿`, which may follow the greeting. */
  opening?: boolean;
}

/** One language's rules, each run on one sentence. */
interface Language {
  /** A request of the reader (unless the sentence is an offer). */
  request: RegExp[];
  /** "If you need anything, let me know": an offer, not a request. */
  offer: RegExp;
  /** An invitation to confirm or to say whether one comes. */
  confirm: RegExp[];
  /** A date or urgency by which something is wanted... */
  deadline: RegExp;
  /** ...that counts when the sentence speaks to the reader. */
  reader: RegExp;
  /** The sender says no answer is needed: nothing in the message asks. */
  noReply: RegExp;
  /** Greetings that are questions only in form. */
  pleasantry: Pleasantry;
  /** A question by its word order, for the writer who left out the question mark. */
  inverted: RegExp;
}

const DAYS_EN = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thurs|fri';
const MONTHS_EN = 'jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec';

export type LanguageCode = 'en' | 'de' | 'fr' | 'es';

const RAW_LANGUAGES: Record<LanguageCode, Language> = {
  en: {
    request: [
      /\b(could|can|would|will|won'?t) you\b/i,
      /\b(would|do) you mind\b/i,
      /\b(please|pls|plz|kindly)\b/i,
      /\bi need you to\b|\bi'?d like you to\b|\bi (would|'d) (appreciate|be grateful)( it)? if you\b/i,
      /\b(i|we) (really |still |urgently )?need (your|you to|it|this|that|them|an? (answer|reply|response|decision))\b/i,
      /\bawait(ing)? your\b|\blook(ing)? forward to (hearing from you|your (reply|response|answer|feedback|input|thoughts|decision))\b/i,
      /\blet (me|us) know\b|\bkeep (me|us) (posted|informed|updated)\b|\bget back to (me|us)\b/i,
      /\bdrop me a (line|note)\b|\bgive me a (call|ring|shout)\b|\b(call|tell|remind|send|e-?mail|text|ping) me\b|\bwrite (me|back)\b/i,
    ],
    offer:
      /\bif you (need|have|want|would like|'d like|wish|prefer|require|are ever|'re ever|happen to|are interested|think of)\b|\bif (there'?s|there is) anything\b|\bfeel free\b|\bdon'?t hesitate\b|\bdo not hesitate\b|\bshould you (need|have|require|wish)\b|\bin case you (need|have|want)\b|\b(any|with) (further |other |more )?questions\b/i,
    confirm: [
      /\b(please|pls|kindly|can you|could you|would you) (also )?confirm\b|\bconfirm (by|before|your|whether|if|receipt|attendance|availability)\b/i,
      /\brsvp\b/i,
      /\bare you (available|free|coming|around|able|joining|going|still (on|up|in|coming))\b|\b(will|would|can|could) you (be able to )?(make it|come|join|attend)\b/i,
    ],
    deadline: new RegExp(
      `\\bby (the )?(end of (the )?(day|week|month)|eod|cob|close of business|tomorrow|tonight|today|noon|next week|${DAYS_EN}|\\d{1,2}(:\\d\\d)?\\s*(am|pm)|\\d{1,2}(st|nd|rd|th)\\b|(${MONTHS_EN})\\w*)\\b|\\bno later than\\b|\\bdeadline\\b|\\bdue (by|on)\\b|\\basap\\b|\\bas soon as (possible|you can)\\b|\\burgent(ly)?\\b|\\bbefore (the meeting|tomorrow|end of|${DAYS_EN})\\b`,
      'i',
    ),
    reader: /\b(you|your|yours|u)\b/i,
    noReply:
      /\bno (need|reason) to (reply|respond|answer|write back)\b|\b(don'?t|do not|won'?t) (have|need) to (reply|respond|answer|write back)\b|\bno (reply|response|answer) (is )?(needed|necessary|required|expected)\b|\bno action (is )?(needed|required)\b|\bnothing (needed|required) from you\b/i,
    pleasantry: {
      greetings: [/^hi/i, /^hey/i, /^hello/i],
      salutation: /^dear /i,
      phrases:
        /^(how are you( doing| all| guys)?|how are things|how('s| is) it going|how have you been|how('s| is) (life|everything)|what'?s up|how do you do)$/i,
    },
    inverted:
      /^(does|did)\s+\w+|^do\s+(you|we|i|they)\b|^(can|could|would|will|are|is|were|have|has|shall|should)\s+(you|we|i|they|he|she|it|this|that|there)\b/i,
  },
  de: {
    request: [
      // "kannst du"/"können Sie" ask at the start of a sentence; inside one they state what one can do.
      /\b(könntest|würdest) du\b|\b(könntet|würdet) ihr\b|^(kannst|wirst) du\b|^(könnt|werdet) ihr\b/i,
      /\b(Könnten|Würden|könnten|würden) Sie\b|^(Können|Werden) Sie\b/,
      /\bbitte\b(?!\s*(schön|sehr|gern|gerne|beachten|beachte|entschuldig|verzeih|nicht antworten|keine antwort)\b)/i,
      /\bich bitte (dich|euch|um)\b|\bIch bitte Sie\b|\bbitte um\b/i,
      /\b(gib|gebt) (mir|uns) (bitte )?(kurz )?Bescheid\b|\bsag(t)? (mir|uns) (bitte )?(kurz )?Bescheid\b|\blass(t)? (mich|uns) wissen\b|\bmelde dich\b|\bmeldet euch\b|\b(um|auf) (eine |deine |eure |Ihre )?(kurze |baldige )?Rückmeldung\b/i,
      /\b(Geben Sie|Sagen Sie|Lassen Sie) (mir|uns)\b|\bMelden Sie sich\b/,
      /\bich brauche (dich|deine|eure|von dir|von euch|bis)\b|\bich brauche (Ihre|von Ihnen)\b/i,
      /\b(freue mich|würde mich freuen) (auf|über) (deine|eure|Ihre) (Antwort|Rückmeldung|Nachricht)\b|\bwarte auf (deine|eure|Ihre) (Antwort|Rückmeldung)\b/i,
    ],
    offer:
      /\b(wenn|falls|sollten?) (du|ihr|Sie) (noch |weitere )?(Fragen|Hilfe|etwas|was|irgendwas)\b|\bbei (weiteren |offenen )?Fragen\b|\b(wenn|falls) (du|ihr|Sie) (möchtest|möchten|willst|wollt|magst|Lust|Interesse|mal in)\b|\b(zögere|zögert|zögern Sie) nicht\b|\b(melde dich|meldet euch|melden Sie sich) gerne\b|\bgerne (melden|anrufen)\b/i,
    confirm: [
      /\b(bitte|kurz)( um)? (eine )?(kurze )?(Bestätigung|bestätig\w*)\b|\b(kannst|könntest) du [^.?!]{0,30}bestätigen\b|\bZusage\b|\bzusagen\b/i,
      /\bob (du|ihr) (kommst|kommt|dabei|Zeit|teilnimmst|teilnehmt)\b|\b(hast|habt) (du|ihr) Zeit\b|\bpasst (es )?(dir|euch)\b/i,
      /\bob Sie (kommen|dabei|Zeit|teilnehmen)\b|\bhaben Sie Zeit\b|\bpasst (es )?Ihnen\b|\bbestätigen Sie\b/,
    ],
    deadline:
      /\bbis (spätestens |zum |Ende |morgen|heute|übermorgen|Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag|nächste|kommende|\d)|\bspätestens\b|\bFrist\b|\bDeadline\b|\bso (schnell|bald) wie möglich\b|\bumgehend\b|\bdringend\b|\bzeitnah\b/i,
    reader: /\b(du|dich|dir|dein\w*|ihr|euch|euer\w*)\b|\b(Sie|Ihnen|Ihr\w*)\b/,
    noReply:
      /\b(keine|ohne) (Antwort|Rückmeldung) (nötig|notwendig|erforderlich)\b|\b(du musst|ihr müsst|Sie müssen) (mir |uns )?nicht antworten\b|\bkein Handlungsbedarf\b/i,
    pleasantry: {
      greetings: [/^hallo/i, /^hi/i, /^hey/i],
      salutation: /^liebe[rs]? /i,
      phrases:
        /^(wie geht('s| es)( (dir|euch|Ihnen))?|alles (gut|klar)( bei (dir|euch|Ihnen))?|wie läuft('s| es)|was gibt('s| es) neues)$/i,
    },
    inverted:
      /^(hast|bist|kannst|kommst|willst|möchtest|weißt|hättest|wärst|könntest|würdest|brauchst|findest|meinst) du\b|^(habt|seid|könnt|kommt|wollt|wisst) ihr\b|^(Haben|Sind|Können|Kommen|Wollen|Möchten|Wissen|Hätten|Wären|Könnten|Würden|Brauchen|Finden) Sie\b|^(Gibt|Geht|Passt) es\b/,
  },
  fr: {
    request: [
      /\b(pourrais|pourriez|peux|pouvez|voudrais|voudriez|veux|voulez)-(tu|vous)\b/i,
      /\bveuillez\b(?! trouver)/i,
      /\bmerci de (bien vouloir |me |nous |m'|lui )?(confirmer|envoyer|répondre|faire|indiquer|transmettre|renvoyer|valider|signer|remplir|compléter|vérifier|relire|appeler|rappeler|contacter|revenir|donner|dire|préciser|retourner|tenir)/i,
      /\b(dis|dites|fais|faites|tiens|tenez|donne|donnez|envoie|envoyez|appelle|appelez|rappelle|rappelez|confirme|confirmez|réponds|répondez|écris|écrivez)[- ]moi\b|\b(fais|faites)-moi (signe|savoir)\b/i,
      /\bs'il (te|vous) pla[iî]t\b|\bstp\b|\bsvp\b/i,
      /\bj'ai besoin (de ton|de ta|de tes|de votre|de vos|que tu|que vous)\b/i,
      /\bdans l'attente de (ta|votre) (réponse|retour)\b|\bj'attends (ta|votre) (réponse|retour)\b|\b(au plaisir|hâte) de (te|vous) lire\b/i,
    ],
    offer:
      /\bsi (tu as|vous avez) (des|la moindre|d'autres|une|besoin)\b|\bn'h[ée]site[zs]? pas\b|\bsi (tu veux|vous voulez|tu souhaites|vous souhaitez)\b|\bpour toute (question|demande)\b/i,
    confirm: [
      /\b(merci de|pourriez-vous|pouvez-vous|peux-tu|pourrais-tu|veuillez) (me |nous )?confirmer\b|\bconfirme(z)?[- ]moi\b/i,
      /\b(es-tu|êtes-vous|seras-tu|serez-vous) (disponibles?|libres?|là|présente?s?)\b|\b(ça te va|ça vous va|cela vous convient|ça te convient)\b|\bconfirmation de (ta|votre) (présence|participation)\b/i,
    ],
    deadline:
      /\b(avant|d'ici) (le |la |ce |demain|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|la fin|midi|\d)|\bau plus tard\b|\bdate limite\b|\bdès que possible\b|\bau plus vite\b|\burgent\b|\bpour (demain|lundi|mardi|mercredi|jeudi|vendredi)\b/i,
    reader: /(^|[\s'’(])(tu|te|toi|ton|ta|tes|vous|votre|vos)\b|\bt['’]/i,
    noReply:
      /\b(pas besoin|inutile) de (me |nous )?(répondre|réponse)\b|\b(tu n'as|vous n'avez) pas (besoin de|à) (me |nous )?répondre\b|\baucune (réponse|action) (n'est )?(nécessaire|requise|attendue)\b/i,
    pleasantry: {
      greetings: [/^bonjour/i, /^salut/i, /^coucou/i],
      salutation: /^(cher|chère) /i,
      phrases: /^(comment (ça|ca) va|comment vas-tu|comment allez-vous|(ça|ca) va|quoi de neuf)$/i,
    },
    inverted: /^est-ce qu|^\w+-(tu|vous|il|elle|on|ils|elles)\b/i,
  },
  es: {
    request: [
      // "puedes" alone states what one can do; the conditional asks.
      /\b(podr[ií]as|podr[ií]a usted|podr[ií]an ustedes|podr[ií]ais)\b/i,
      /\bpor favor\b(?! encuentr)|\bporfa(vor)?\b/i,
      /\b(av[ií]same|av[ií]seme|av[ií]sanme|d[ií]me|d[ií]game|h[aá]zme saber|h[aá]game saber|h[aá]zmelo saber|conf[ií]rmame|conf[ií]rmeme|ll[aá]mame|ll[aá]meme|env[ií]ame|env[ií]eme|m[aá]ndame|resp[oó]ndeme|resp[oó]ndame|cu[eé]ntame|escr[ií]beme)\b/i,
      /\bnecesito (que|tu|su|sus|tus)\b|\bte agradecer[ií]a (que|si)\b|\ble agradecer[ií]a (que|si)\b/i,
      /\bquedo (a la espera|atent[oa]) de (tu|su)\b|\bespero (tu|su) (respuesta|confirmaci[oó]n)\b|\ben espera de (tu|su) respuesta\b/i,
    ],
    offer:
      /\bsi (tienes|tiene|tienen|necesitas|necesita|necesitan) (alguna |cualquier |m[aá]s )?(pregunta|duda|cosa|ayuda|algo|informaci[oó]n)\b|\bno dudes en\b|\bno dude en\b|\bsi (quieres|quiere|deseas|desea)\b|\bcualquier (duda|pregunta|cosa)\b/i,
    confirm: [
      /\b(conf[ií]rma(me|nos)?|conf[ií]rme(me|nos)?)\b|\b(puedes|podr[ií]as|puede|podr[ií]a) confirmar\b|\bconfirmar (tu|su) (asistencia|participaci[oó]n)\b/i,
      /\b(est[aá]s|est[aá]) (disponible|libre)\b|\b(te|le) viene bien\b|\b(vienes|vendr[aá]s|asistir[aá]s|podr[aá]s venir)\b/i,
    ],
    deadline:
      /\bantes del? (lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bado|domingo|ma[nñ]ana|fin|final|\d)|\bpara (el )?(lunes|martes|mi[eé]rcoles|jueves|viernes|ma[nñ]ana)\b|\ba m[aá]s tardar\b|\bfecha l[ií]mite\b|\bplazo\b|\blo antes posible\b|\bcuanto antes\b|\burgente\b/i,
    reader: /\b(t[uú]|te|ti|tus|usted|ustedes|vosotros|os|vuestr\w+|le|les|su|sus)\b/i,
    noReply:
      /\bno (hace falta|es necesario|tienes que|necesitas) (que )?(me )?(respond|contest)\w*|\bno (requiere|necesita) respuesta\b/i,
    pleasantry: {
      greetings: [/^hola/i],
      salutation: /^(querid[oa]|estimad[oa]) /i,
      phrases:
        /^((qu[eé]) tal( est[aá]s| todo)?|c[oó]mo (est[aá]s|est[aá] usted|est[aá]n|te va|va todo|andas))$/i,
      opening: true,
    },
    // Spanish opens its questions with ¿, which the question rule reads.
    inverted: /(?!)/,
  },
};

/** The languages, with their patterns made Unicode-aware. */
const LANGUAGES = Object.fromEntries(
  Object.entries(RAW_LANGUAGES).map(([code, language]) => [
    code,
    Object.fromEntries(
      Object.entries(language).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.map(u) : value instanceof RegExp ? u(value) : value,
      ]),
    ) as unknown as Language,
  ]),
) as Record<LanguageCode, Language>;
const LANGUAGE_CODES = Object.keys(LANGUAGES) as LanguageCode[];

/** Phrases that look like requests and are not ("please find attached", "please note"). */
const NOT_REQUESTS = u(
  /\b(please|kindly) (find|see) (attached|enclosed|below|above|the attached|here)\b|\bplease (note|be (advised|aware)|disregard|ignore|forgive|excuse|accept (my|our) apolog\w*|enjoy)\b|\b(please )?(do not|don't) reply\b|\banbei\b|\bbitte beachte\w*\b|\bveuillez trouver\b|\bci-joint\b|\bpor favor,? (encuentre|vea) adjunto\b|\badjunto\b/gi,
);

/** Thanks, which name the reader without asking anything of them. */
const THANKS = u(
  /\b(thank you|thanks to you|danke (dir|euch|Ihnen)|merci à (toi|vous)|gracias a (ti|usted))\b/gi,
);

/** One character of white space; a run of it, read from `lastIndex` on. */
const SPACE = /\s/;
const SPACES = /\s*/y;

/** Where the white space from `at` on ends. */
function pastSpaces(text: string, at: number): number {
  SPACES.lastIndex = at;
  SPACES.test(text);
  return SPACES.lastIndex;
}

const isSurrogatePair = (high: number, low: number) =>
  high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;

/** A character a question mark follows; what may come after the question mark. */
const BEFORE_QUESTION = /^[\p{L}\p{N}"'’)\]]$/u;
const AFTER_QUESTION = /[!?.)"'’\s]/;

/**
 * Whether `text[0, end)` ends in a question mark after a word: a letter, digit, quote or bracket,
 * white space, `?`, then only `!?.)"'’` and white space. One backward pass to where that tail
 * begins, one forward pass over it.
 */
function questionEnds(text: string, end: number): boolean {
  let tail = end;
  while (tail > 0 && AFTER_QUESTION.test(text[tail - 1]!)) tail--;
  // The character before the tail, both halves of it when it is astral (a letter may be).
  const pair = tail > 1 && isSurrogatePair(text.charCodeAt(tail - 2), text.charCodeAt(tail - 1));
  let before = tail > 0 ? text.slice(pair ? tail - 2 : tail - 1, tail) : '';
  for (let i = tail; i < end; i++) {
    if (text[i] === '?' && BEFORE_QUESTION.test(before)) return true;
    if (!SPACE.test(text[i]!)) before = text[i]!;
  }
  return false;
}

/**
 * A question mark that ends a sentence after a word (not Enron's stray `?` for a lost character),
 * maybe with a smiley after it, or a `¿` anywhere. The RegExp this was,
 * `/[\p{L}\p{N}"'’)\]]\s*\?+[!?.)"'’\s]*(\s*[:;]-?[)(DP])?$|¿/u`, tried every `?` of a run against
 * every end of it: seconds on a line of question marks.
 */
export function asksQuestion(text: string): boolean {
  if (text.includes('¿') || questionEnds(text, text.length)) return true;
  const smiley = /[:;]-?[)(DP]$/.exec(text.slice(-3))?.[0].length ?? 0;
  return smiley > 0 && questionEnds(text, text.length - smiley);
}

/**
 * A paragraph's sentences: split at the white space after `.!?。？` or before `¿`. Each run of white
 * space is looked at once (the RegExp split, `(?<=[.!?。？])\s+|\s+(?=¿)`, scanned the rest of a run
 * from each of its characters looking for a `¿`).
 */
function splitSentences(paragraph: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const run of paragraph.matchAll(/\s+/g)) {
    const end = run.index + run[0].length;
    if ((run.index > 0 && '.!?。？'.includes(paragraph[run.index - 1]!)) || paragraph[end] === '¿') {
      parts.push(paragraph.slice(from, run.index));
      from = end;
    }
  }
  parts.push(paragraph.slice(from));
  return parts;
}

/**
 * Sentences of a text: paragraphs' lines joined (mail is wrapped at 72 characters), then split. A
 * run of white space holding a line break becomes one space (as `\s*\n\s*` did, which backtracked
 * over every run without one).
 */
export function sentences(text: string): string[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, (run) => (run.includes('\n') ? ' ' : run)))
    .flatMap(splitSentences)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Whether `prefix` is `(greeting)?[,!]?\s*` (then `¿?\s*` in Spanish): what may precede a phrase. */
function greets(prefix: string, { greetings, salutation, opening }: Pleasantry): boolean {
  /** Whether `[,!]?\s*(¿\s*)?` fills the prefix from `at`: greedy, as no part can take another's. */
  const restIsPunctuation = (at: number) => {
    if (prefix[at] === ',' || prefix[at] === '!') at++;
    at = pastSpaces(prefix, at);
    if (opening && prefix[at] === '¿') at = pastSpaces(prefix, at + 1);
    return at === prefix.length;
  };
  if (restIsPunctuation(0)) return true;
  for (const greeting of greetings) {
    const said = greeting.exec(prefix);
    if (said && restIsPunctuation(said[0].length)) return true;
  }
  // "dear Anna": the name is everything up to the first `,!?`; what follows it must be `[,!]?\s*`.
  const named = salutation.exec(prefix)?.[0].length;
  if (named === undefined) return false;
  let end = named;
  while (end < prefix.length && !',!?'.includes(prefix[end]!)) end++;
  if (end === prefix.length) return end > named;
  return end > named && prefix[end] !== '?' && restIsPunctuation(end);
}

/** Longer than any phrase of the pleasantries (the longest, "alles klar bei Ihnen", has 20). */
const PHRASE_CHARS = 32;

/**
 * Whether a sentence (its end's punctuation and its opening `¿` removed) is only a greeting, in
 * the language `code`.
 */
export function isPleasantry(bare: string, code: LanguageCode): boolean {
  const pleasantry = LANGUAGES[code].pleasantry;
  for (let start = Math.max(0, bare.length - PHRASE_CHARS); start < bare.length; start++)
    if (pleasantry.phrases.test(bare.slice(start)) && greets(bare.slice(0, start), pleasantry)) return true;
  return false;
}

/** A sentence without the `?!.` and white space it ends with, scanned back from its end. */
export function withoutEnd(sentence: string): string {
  let end = sentence.length;
  while (end > 0 && (SPACE.test(sentence[end - 1]!) || '?!.'.includes(sentence[end - 1]!))) end--;
  return sentence.slice(0, end);
}

/** Why one sentence asks something of its reader (empty: it does not). */
function sentenceAsks(sentence: string): string[] {
  const reasons = new Set<string>();
  const bare = withoutEnd(sentence).replace(/^[\s¿]+/, '');
  const languages = Object.values(LANGUAGES);
  const asked = asksQuestion(sentence) || languages.some((l) => l.inverted.test(bare));
  if (asked && !LANGUAGE_CODES.some((code) => isPleasantry(bare, code))) reasons.add('question');
  const requestText = sentence.replace(NOT_REQUESTS, ' ');
  for (const [code, language] of Object.entries(LANGUAGES)) {
    if (language.request.some((r) => r.test(requestText)) && !language.offer.test(sentence))
      reasons.add(`request:${code}`);
    if (language.confirm.some((r) => r.test(sentence))) reasons.add(`confirm:${code}`);
    if (language.deadline.test(sentence) && language.reader.test(sentence.replace(THANKS, ' ')))
      reasons.add(`deadline:${code}`);
  }
  return [...reasons];
}

/**
 * A subject of a new conversation (not a reply or a forward). The white space before a `[2]` is in
 * the optional part with it, so that part and the space after it never re-read the same run
 * (`\s*(\[\d+\])?\s*:` did, in the square of its length).
 */
export const isNewSubject = (subject: string) =>
  !/^\s*(re|aw|fw|fwd|wg|tr|rv|sv|antw|enc|rif|r)(\s*\[\d+\])?\s*:/i.test(subject);

export interface Asks {
  /** The message asks something of its reader. */
  asks: boolean;
  /** Why: `question`, `request:en`, `confirm:de`, `deadline:fr`, `subject-question`... */
  reasons: string[];
}

/**
 * Whether a person's message asks something of its reader, from its subject and its own new text
 * (`splitText(body).own`; its first ANALYSED_CHARS), and why.
 */
export function readAsks({ subject, own }: { subject: string; own: string }): Asks {
  own = own.slice(0, ANALYSED_CHARS);
  if (Object.values(LANGUAGES).some((l) => l.noReply.test(own))) return { asks: false, reasons: [] };
  const reasons = new Set(sentences(own).flatMap(sentenceAsks));
  if (isNewSubject(subject)) {
    const topic = subject.trim();
    if (asksQuestion(topic)) reasons.add('subject-question');
    for (const reason of sentenceAsks(topic)) if (reason !== 'question') reasons.add(`subject-${reason}`);
  }
  return { asks: reasons.size > 0, reasons: [...reasons] };
}
