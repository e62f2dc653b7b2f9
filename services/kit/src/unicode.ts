/**
 * Whether a UTF-16 code unit is what a JavaScript regex's `\s` matches (ECMAScript's WhiteSpace and
 * LineTerminator), for the scanners that replace regexes on user text and must agree with them.
 */
export function isRegExpSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
