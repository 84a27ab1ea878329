// Cleaning user-written text before it is validated and stored. Control characters (NUL, escape
// sequences, C1 codes) and bidirectional overrides (which can make a title read differently from
// what it contains) never belong in a listing, a message or any other text a person writes;
// descriptions and messages keep their line breaks and tabs. The zod side is domain/schemas/user-text.ts.

// C0 controls, DEL, C1 controls.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROLS_EXCEPT_TAB_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidi embeddings/overrides/isolates, and the zero-width no-break space (BOM) in the middle of text.
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\ufeff]/g;

// Characters that show nothing: whitespace, zero-width space/joiners, word joiner, soft hyphen,
// Mongolian vowel separator, combining grapheme joiner, Hangul fillers. They stay inside text (the
// joiner in 👨‍👩‍👧), but a text made only of them says nothing and counts as empty.
const ONLY_INVISIBLE = /^[\s\u00ad\u034f\u115f\u1160\u180e\u200b-\u200d\u2060-\u2064\u3164\uffa0]*$/;

function visibleOrEmpty(value: string): string {
  return ONLY_INVISIBLE.test(value) ? "" : value;
}

/** One-line text (titles, names): line breaks and tabs become spaces, other controls are removed. */
export function cleanSingleLine(value: string): string {
  return visibleOrEmpty(
    value
      .replace(/[\t\n\r\v\f]/g, " ")
      .replace(CONTROLS, "")
      .replace(BIDI_CONTROLS, ""),
  );
}

/** Multi-line text (descriptions, messages): CRLF and CR become LF; newline and tab stay; other controls go. */
export function cleanMultiLine(value: string): string {
  return visibleOrEmpty(value.replace(/\r\n?/g, "\n").replace(CONTROLS_EXCEPT_TAB_NEWLINE, "").replace(BIDI_CONTROLS, ""));
}
