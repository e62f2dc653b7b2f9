import { LinearRegExp } from './linear-regexp';

/*
 * email-reply-parser 2.3.9 (MIT, Crisp IM SAS), ported to run in linear time: the same algorithm and
 * the same patterns, which run on LinearRegExp instead of RegExp. The library's patterns backtrack
 * polynomially on crafted mail (`^(.+\son.*at.*wrote:)$` took 2.9 s on one 8,000-character line, a
 * run of blank lines takes seconds in `^-*\s*(On\s…)` tried at every line), and it reads them
 * through RegExp unless the native re2 module is installed.
 *
 * The library walks the text reversed, line by line from the last; this reads the lines in their
 * own order from the last one, which gives the same fragments without reversing every line twice.
 */

/**
 * Lines that introduce a quoted message: the library's `quoteHeadersRegex`, in its order (exported
 * for the tests, which compare them with the library's).
 */
export const QUOTE_HEADER_PATTERNS = [
  /^-*\s*(On\s.+\s.+\n?wrote:{0,1})\s{0,1}-*$/m,
  /^-*\s*(Le\s.+\s.+\n?écrit\s?:{0,1})\s{0,1}-*$/m,
  /^-*\s*(El\s.+\s.+\n?escribió:{0,1})\s{0,1}-*$/m,
  /^-*\s*(Il\s.+\s.+\n?scritto:{0,1})\s{0,1}-*$/m,
  /^-*\s*(Em\s.+\s.+\n?escreveu:{0,1})\s{0,1}-*$/m,
  /^\s*(Am\s.+\s)\n?\n?schrieb.+\s?(\[|<).+(\]|>):$/m,
  /^\s*(Op\s[\s\S]+?\n?schreef[\s\S]+:)$/m,
  /^\s*((W\sdniu|Dnia)\s[\s\S]+?(pisze|napisał(\(a\))?):)$/mu,
  /^\s*(Den\s.+\s\n?skrev\s.+:)$/m,
  /^\s*(pe\s.+\s.+\n?kirjoitti:)$/m,
  /^\s*(Am\s.+\sum\s.+\s\n?schrieb\s.+:)$/m,
  /^\s*(ср,\s.+\n? г\. в\s.+,\s.+[[|<].+[\]|>]:)$/m,
  /^(在[\s\S]+写道：)$/m,
  /^(20[0-9]{2}\..+\s작성:)$/m,
  /^(20[0-9]{2}\/.+のメッセージ:)$/m,
  /^(.+\s<.+>\sschrieb:)$/m,
  /^(.+\son.*at.*wrote:)$/m,
  /^\s*(From\s?:.+\s?\n?\s*[[|<].+[\]|>])/m,
  /^\s*(Von\s?:.+\s?\n?\s*[[|<].+[\]|>])/m,
  /^\s*(De\s?:.+\s?\n?\s*(\[|<).+(\]|>))/m,
  /^\s*(Van\s?:.+\s?\n?\s*(\[|<).+(\]|>))/m,
  /^\s*(Da\s?:.+\s?\n?\s*(\[|<).+(\]|>))/m,
  /^(20[0-9]{2})-([0-9]{2}).([0-9]{2}).([0-9]{2}):([0-9]{2})\n?(.*)>:$/m,
  /^\s*([a-z]{3,4}\.\s[\s\S]+\sskrev\s[\s\S]+:)$/m,
  /^([0-9]{2}).([0-9]{2}).(20[0-9]{2})(.*)(([0-9]{2}).([0-9]{2}))(.*)"( *)<(.*)>( *):$/m,
  /^[0-9]{2}:[0-9]{2}(.*)[0-9]{4}(.*)"( *)<(.*)>( *):$/,
  /^(.*)[0-9]{4}(.*)from(.*)<(.*)>:$/,
  /^-{1,12} ?(O|o)riginal (M|m)essage ?-{1,12}$/i,
  /^-{1,12} ?(O|o)prindelig (B|b)esked ?-{1,12}$/i,
  /^-{1,12} ?(M|m)essage d'origine ?-{1,12}$/i,
  /^-{1,12} ?(U|u)rsprüngliche (N|n)achricht ?-{0,12}$/i,
];

/** Lines that begin a signature: the library's `signatureRegex`. */
export const SIGNATURE_PATTERNS = [
  /^\s*-{2,4}$/,
  /^\s*_{2,4}$/,
  /^-- $/,
  /^\+{2,4}$/,
  /^={2,4}$/,
  /^________________________________$/,
  /^Sent from (?:\s*.+)$/,
  /^Get Outlook for (?:\s*.+).*/m,
  /^Cheers,?!?$/im,
  /^Best wishes,?!?$/im,
  /^\w{0,20}\s?(\sand\s)?Regards,?!?！?$/im,
  /^Von (?:\s*.+) gesendet$/,
  /^Gesendet von (?:\s*.+) für (?:\s*.+)$/,
  /^Sendt fra (?:\s*.+)$/,
  /^Envoyé depuis (?:\s*.+)$/,
  /^Envoyé de mon (?:\s*.+)$/,
  /^Envoyé à partir de (?:\s*.+)$/,
  /^Télécharger Outlook pour (?:\s*.+).*/m,
  /^Bien . vous,?!?$/im,
  /^\w{0,20}\s?cordialement,?!?$/im,
  /^Bonne (journ.e|soir.e)!?$/im,
  /^Enviado desde (?:\s*.+)$/,
  /^-*\s*(In\sdata\s.+\s.+\n?scritto:{0,1})\s{0,1}-*$/m,
  /^Verzonden vanaf (?:\s*.+)$/,
  /^Verstuurd vanaf (?:\s*.+)$/,
];

const QUOTE_HEADERS = QUOTE_HEADER_PATTERNS.map((pattern) => new LinearRegExp(pattern, { groups: 1 }));
const SIGNATURES = SIGNATURE_PATTERNS.map((pattern) => new LinearRegExp(pattern));

const isQuoteHeader = (line: string) => QUOTE_HEADERS.some((pattern) => pattern.test(line));
const isSignature = (line: string) => SIGNATURES.some((pattern) => pattern.test(line));

/** One part of a body: what was written now, a quoted reply, or a signature. */
export interface ReplyFragment {
  content: string;
  quoted: boolean;
  signature: boolean;
  /** Quoted, a signature, or empty. */
  hidden: boolean;
}

/**
 * A quote header that a client wrapped over lines ("On Mon, … Alex <a@example.com>\nwrote:") put
 * back on one line, for each pattern's first match, as the library does (with String.replace, `$`
 * patterns and all).
 */
function joinQuoteHeaders(text: string): string {
  for (const pattern of QUOTE_HEADERS) {
    const header = pattern.exec(text)?.captures[1];
    if (header !== undefined) text = text.replace(header, header.replace(/\n/g, ' '));
  }
  return text;
}

interface Building {
  /** The fragment's lines, last first. */
  lines: string[];
  /** Whether its last line read (the first in the text so far) is a signature line. */
  lastIsSignature: boolean;
  quoted: boolean;
  signature: boolean;
}

/**
 * How much of a body the parser reads: what the sender wrote now is at the top. LinearRegExp takes
 * some 100 ns a character for each of the 56 patterns on hostile text (a RegExp, nanoseconds until
 * it backtracks), so this bounds a body's parse to about 0.1 s.
 */
export const PARSED_CHARS = 20_000;

/**
 * The first PARSED_CHARS of a body split as email-reply-parser's `read(text).getFragments()` splits
 * them, in the text's order.
 */
export function replyFragments(body: string): ReplyFragment[] {
  const lines = joinQuoteHeaders(body.slice(0, PARSED_CHARS).replace(/\r\n/g, '\n')).split('\n');
  const done: Building[] = [];
  let fragment: Building | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    let line = lines[i]!;
    const signatureLine = isSignature(line);
    // The library trims the start of the reversed line: the end of the line.
    if (!signatureLine) line = line.trimEnd();
    if (fragment) {
      if (fragment.lastIsSignature) {
        fragment.signature = true;
        done.push(fragment);
        fragment = null;
      } else if (line === '' && isQuoteHeader(fragment.lines.at(-1)!)) {
        fragment.quoted = true;
        done.push(fragment);
        fragment = null;
      }
    }
    // The library tests `(>+)$` on the reversed line: tried from each `>` of a run, to its end.
    const quoted = line.startsWith('>');
    if (
      fragment === null ||
      !(fragment.quoted === quoted || (fragment.quoted && (isQuoteHeader(line) || line === '')))
    ) {
      if (fragment) done.push(fragment);
      fragment = { lines: [], lastIsSignature: false, quoted, signature: false };
    }
    fragment.lines.push(line);
    fragment.lastIsSignature = signatureLine || (line !== lines[i] && isSignature(line));
  }
  if (fragment) done.push(fragment);
  return done.reverse().map(({ lines: last, quoted, signature }) => ({
    content: [...last].reverse().join('\n').replace(/^\n/, ''),
    quoted,
    signature,
    hidden: quoted || signature || last.every((line) => line === ''),
  }));
}
