// What search understands of Norwegian (docs/decisions/151-search-language.md): inflection through
// Snowball's Norwegian stemmer plus a list of irregular forms, compounds both ways, typos by one or
// two edits, and everyday words for the same thing. Pure functions, shared by the Worker (the index's
// text at write time, the query at search time, saved-search matching) and the tests; the word lists
// are data in domain/search-words.ts. All text here is folded first (domain/search.ts `foldNorwegian`),
// exactly as the index folds it.
import { stemmer } from "@orama/stemmers/norwegian";
import { foldNorwegian } from "./search";
import { IRREGULAR_FORMS, NOT_COMPOUNDS, STOPWORDS, SYNONYMS } from "./search-words";

const FORM_STEM = new Map<string, string>();
for (const [stem, ...forms] of IRREGULAR_FORMS) for (const form of forms) FORM_STEM.set(form, stem);
/** Forms that also apply as a compound's last part, longest first. */
const HEAD_FORMS = [...FORM_STEM.keys()].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
/** The least a compound's first part must have left of an irregular last part ("sparke|sykler"). */
const MIN_MODIFIER = 3;

/** The words of a text, folded: letters and digits only. */
export function textWords(text: string): string[] {
  return foldNorwegian(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * A folded word's stem: an irregular form's stem (also as a compound's last part), else Snowball's.
 * Words with a digit, and stems shorter than three letters, stay as they are. The same function
 * stems the index's titles and the query, so "dukker", "dukken" and "dukke" all become "dukk".
 */
export function stemWord(word: string): string {
  const irregular = FORM_STEM.get(word);
  if (irregular) return irregular;
  for (const form of HEAD_FORMS) {
    if (word.length - form.length >= MIN_MODIFIER && word.endsWith(form)) return word.slice(0, -form.length) + FORM_STEM.get(form);
  }
  if (/\d/.test(word)) return word;
  const stem = stemmer(word);
  return stem.length >= 3 ? stem : word;
}

/**
 * Every form of a word the raw (unstemmed) text may hold that its stem does not start: the irregular
 * forms of its lemma ("sykkel" → "sykler", "syklene", …; "sparkesykkel" → "sparkesykler", …). The
 * stem itself starts every regular form.
 */
export function irregularForms(word: string): string[] {
  const stem = stemWord(word);
  const out: string[] = [];
  for (const [lemma, ...forms] of IRREGULAR_FORMS) {
    if (stem === lemma) out.push(...forms);
    else if (stem.length - lemma.length >= MIN_MODIFIER && stem.endsWith(lemma) && forms.every((f) => f.length >= 4)) {
      const modifier = stem.slice(0, -lemma.length);
      out.push(...forms.map((f) => modifier + f));
    }
  }
  return out.filter((f) => !f.startsWith(stem));
}

/** A stem this long starts few other words: the raw text is searched for it as it is. */
const SAFE_STEM = 5;

/**
 * How a word's inflected forms are looked for in raw (unstemmed) text, where the stem is a substring:
 * the stem itself when it is long ("lekebil" in "lekebilene"), else the stem with the endings that
 * start every other form ("kjol" → "kjole", "kjola": "kjoler", "kjolene"; never "boks" for "bok"),
 * and the irregular forms. The typed word is searched too.
 */
export function rawForms(word: string): string[] {
  const stem = stemWord(word);
  const regular = stem === word || /\d/.test(word) ? [] : stem.length >= SAFE_STEM ? [stem] : [`${stem}e`, `${stem}a`];
  return [...new Set([word, ...regular, ...irregularForms(word)])].filter((f) => f === word || !f.includes(word));
}

/** Vocabulary entries per listing: enough for any title, and a bound on the index's writes. */
const MAX_WORDS = 40;

/** One word of the search vocabulary: folded word, typo key, stem, and the word as written (lowercase). */
export type VocabularyEntry = [word: string, key: string, stem: string, display: string];

/**
 * The text of a listing that the language index holds (listings.search_text, written with the
 * listing): its title's words stemmed, one space before and after each (as listings_title_trigram
 * holds words), and its title's words for the vocabulary that typo correction and compound
 * splitting look words up in. `extra` is the title's companions the index holds with it (the
 * declared fields, such as the brand).
 */
export function searchTextOf(title: string, extra: readonly (string | null | undefined)[] = []): string {
  const text = [title, ...extra.filter((e): e is string => !!e)].join(" ");
  const words = textWords(text);
  const stems = ` ${words.map(stemWord).join(" ")} `;
  const shown = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  const vocabulary = new Map<string, VocabularyEntry>();
  words.forEach((word, i) => {
    if (word.length < 3 || !/\p{L}/u.test(word) || vocabulary.has(word) || vocabulary.size >= MAX_WORDS) return;
    vocabulary.set(word, [word, typoKey(word), stemWord(word), foldNorwegian(shown[i] ?? word) === word ? shown[i] : word]);
  });
  return JSON.stringify({ stems, words: [...vocabulary.values()] });
}

// ---- Typos

/** The key typo candidates are looked up by: doubled letters written once ("sykkel" → "sykel"). */
export function typoKey(word: string): string {
  return word.replace(/(\p{L})\1+/gu, "$1");
}

/** Edits a typed word may be from the word it means: none under 4 letters, 1 from 5, 2 from 8. */
export function typoEdits(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const sorted = (w: string) => [...w].sort().join("");

/**
 * Whether `word` (a vocabulary word) is a correction of the typed `typed`: one edit in words of five
 * letters or more, two in words of eight or more; a four-letter word only by two letters swapped
 * ("lgeo" → "lego"), since one other edit turns a short word into another real one.
 */
export function isCorrection(typed: string, word: string): boolean {
  if (typed === word) return false;
  const distance = editDistance(typed, word);
  if (typed.length === 4) return distance === 1 && word.length === 4 && sorted(typed) === sorted(word);
  return distance <= typoEdits(typed.length);
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * The typo keys within one edit of a typed word's key: the vocabulary words filed under them are the
 * candidates `isCorrection` checks. A doubled letter typed once or twice costs nothing in the key,
 * so "trehjulsykel" meets "trehjulssykkel" (two edits) under one key.
 */
export function typoCandidateKeys(typed: string): string[] {
  if (typoEdits(typed.length) === 0) return [];
  const key = typoKey(typed);
  const out = new Set<string>([key]);
  for (let i = 0; i <= key.length; i++) {
    const head = key.slice(0, i);
    const tail = key.slice(i);
    if (i < key.length) out.add(head + tail.slice(1));
    if (i < key.length - 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of LETTERS) {
      out.add(head + c + tail);
      if (i < key.length) out.add(head + c + tail.slice(1));
    }
  }
  return [...out];
}

// ---- Compounds

/** First parts that add nothing on a toy marketplace: "lekebåt" is a "båt". */
const EMPTY_MODIFIERS = new Set(["leke"]);

/** A compound typed as one word, split in two: the stems of its first and last part. */
export interface CompoundSplit {
  modifier: string;
  head: string;
}

/**
 * The ways a typed word may split into two words (each part three letters or more; the first part
 * may end in a joining "s" or "e": "bondegårds|dyr", "barne|sykkel"). Which of them are real words
 * is for the vocabulary to say (`knownSplits`).
 */
export function compoundSplits(word: string): CompoundSplit[] {
  if (word.length < 6 || /\d/.test(word)) return [];
  const out: CompoundSplit[] = [];
  for (let i = 3; i <= word.length - 3; i++) {
    const first = word.slice(0, i);
    const head = stemWord(word.slice(i));
    const firsts = new Set([first]);
    if (first.length > 3 && (first.endsWith("s") || first.endsWith("e"))) firsts.add(first.slice(0, -1));
    for (const f of firsts) out.push({ modifier: EMPTY_MODIFIERS.has(f) ? "" : stemWord(f), head });
  }
  return out;
}

// ---- Everyday words

/** The other words a typed word stands for (`SYNONYMS`), each stemmed word by word ("hot wheels" → "hot wheel"). */
export function synonymsOf(word: string): string[] {
  const stem = stemWord(word);
  const out = new Set<string>();
  for (const group of SYNONYMS) {
    const stems = group.words.map((w) => w.split(" ").map(stemWord).join(" "));
    const at = stems.indexOf(stem);
    if (at < 0 || (group.oneWay && at !== 0)) continue;
    for (const s of stems) if (s !== stem) out.add(s);
  }
  return [...out];
}

/**
 * The words of `NOT_COMPOUNDS` that hold a typed word without being a form of it: "bil" →
 * "playmobil", "ski" → "skinner". As written (`raw`) for the folded title, as stems for the stemmed one.
 */
export function notCompoundsOf(term: string): { raw: string[]; stems: string[] } {
  const stem = stemWord(term);
  return {
    raw: NOT_COMPOUNDS.filter((w) => w !== term && w.includes(term) && stemWord(w) !== stem),
    stems: [...new Set(NOT_COMPOUNDS.map(stemWord))].filter((w) => w !== stem && w.includes(stem)),
  };
}

// ---- A query's words, understood

/** What the vocabulary of listed titles says about a query's words (worker/features/search/vocabulary.ts). */
export interface Vocabulary {
  /** Typed words the titles hold, as a word or a stem: never corrected nor split. */
  known: ReadonlySet<string>;
  /** Stems the titles hold (the parts of a split compound are looked up here). */
  stems: ReadonlySet<string>;
  /** Per typed word, the vocabulary words filed under its typo keys: word, as written, listings with it. */
  candidates: ReadonlyMap<string, readonly { word: string; display: string; listings: number }[]>;
}

/** What a query's word may match besides itself. */
export interface TermLanguage {
  /** The typed word, folded. */
  term: string;
  stem: string;
  /** Forms of the raw text the stem does not start (irregular plurals). */
  forms: string[];
  /** Everyday words for the typed one (`SYNONYMS`), stemmed. */
  related: string[];
  /** The typed word split into two known words (an unknown compound: "dinosaurbok" → "dinosaur", "bok"). */
  splits: CompoundSplit[];
  /** The stems of the vocabulary words the typed one may be a typo of (none when it is a known word). */
  corrected: string[];
  /** The best correction of a typo, as written in a title (for "Mente du …?"). */
  correction: string | null;
  /** A small word (`STOPWORDS`) among other words: the stemmed title does not require it. */
  stopword: boolean;
}

/** Corrections kept per typed word: the closest, then the most listed. */
const MAX_CORRECTIONS = 3;

/** The language of each term of a query (`searchTerms`), given what the vocabulary says of them. */
export function understandTerms(terms: readonly string[], vocabulary: Vocabulary | null): TermLanguage[] {
  const small = new Set(STOPWORDS);
  const content = terms.some((t) => !small.has(t));
  return terms.map((term) => {
    const stem = stemWord(term);
    const related = synonymsOf(term).filter((s) => s !== stem);
    const corrected: string[] = [];
    let splits: CompoundSplit[] = [];
    let correction: string | null = null;
    if (vocabulary && !vocabulary.known.has(term)) {
      splits = compoundSplits(term)
        .filter((s) => vocabulary.stems.has(s.head) && (!s.modifier || vocabulary.stems.has(s.modifier)))
        .slice(0, 2);
      // A word that splits into two known ones is a compound, not a typo.
      const corrections =
        splits.length > 0
          ? []
          : (vocabulary.candidates.get(term) ?? [])
              .filter((c) => isCorrection(term, c.word))
              .sort((a, b) => editDistance(term, a.word) - editDistance(term, b.word) || b.listings - a.listings)
              .slice(0, MAX_CORRECTIONS);
      for (const c of corrections) if (!corrected.includes(stemWord(c.word))) corrected.push(stemWord(c.word));
      correction = corrections[0]?.display ?? null;
    }
    return { term, stem, forms: irregularForms(term), related, splits, corrected, correction, stopword: content && small.has(term) };
  });
}

/** The words a query asks the vocabulary about: whether each is known, its typo keys, its compound parts. */
export function vocabularyQuestions(terms: readonly string[]): {
  terms: [term: string, stem: string][];
  keys: [term: string, key: string][];
  parts: [term: string, stem: string][];
} {
  const unique = [...new Set(terms)].filter((t) => t.length >= 4 && !/\d/.test(t));
  return {
    terms: unique.map((t) => [t, stemWord(t)]),
    keys: unique.flatMap((t) => typoCandidateKeys(t).map((k): [string, string] => [t, k])),
    parts: unique.flatMap((t) =>
      [...new Set(compoundSplits(t).flatMap((s) => [s.modifier, s.head]))].filter(Boolean).map((s): [string, string] => [t, s]),
    ),
  };
}
