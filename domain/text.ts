// Cleaning user-written text before it is validated and stored. Control characters (NUL, escape
// sequences, C1 codes) and bidirectional overrides (which can make a title read differently from
// what it contains) never belong in a listing; descriptions keep their line breaks and tabs.

// C0 controls, DEL, C1 controls.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROLS_EXCEPT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidi embeddings/overrides/isolates, and the zero-width no-break space (BOM) in the middle of text.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** One-line text (titles, names): line breaks and tabs become spaces, other controls are removed. */
export function cleanSingleLine(value: string): string {
  return value.replace(/[\t\n\r\v\f]/g, " ").replace(CONTROLS, "").replace(BIDI_CONTROLS, "");
}

/** Multi-line text (descriptions): CRLF and CR become LF; newline and tab stay; other controls go. */
export function cleanMultiLine(value: string): string {
  return value.replace(/\r\n?/g, "\n").replace(CONTROLS_EXCEPT_TAB_NEWLINE, "").replace(BIDI_CONTROLS, "");
}
