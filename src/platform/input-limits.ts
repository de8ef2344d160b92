// Bounds on every client string, whichever transport brings it (docs/decisions.md "Request bodies").

/** Longest client string (a field's own maximum may be lower). */
export const MAX_INPUT_STRING = 10_000;

/** C0 controls and DEL: never in member names, identifiers, query strings or paths. */
export const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/** Free text may hold tab, line feed and carriage return (addresses, rule scripts). */
export const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Text a program made (a rule script's message, an error) as it may be stored: control characters
 * other than tab and line breaks and lone surrogates replaced (PostgreSQL refuses U+0000 and lone
 * surrogates, and one such value failed the whole statement of a batch), at most `max` characters.
 */
export function storableText(text: string, max: number): string {
  const clean = text.toWellFormed().replace(new RegExp(TEXT_CONTROL.source, 'g'), '\uFFFD');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
