// Bounds on every client string, whichever transport brings it (docs/decisions.md "Request bodies").

/** Longest client string (a field's own maximum may be lower). */
export const MAX_INPUT_STRING = 10_000;

/** C0 controls and DEL: never in member names, identifiers, query strings or paths. */
export const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

/** Free text may hold tab, line feed and carriage return (addresses, rule scripts). */
export const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
