// What search knows about Norwegian words beyond its stemmer, kept as data and reviewed in
// docs/decisions/151-search-language.md. Every word is written folded the way the index folds text
// (domain/search.ts `foldNorwegian`: ø→o, æ→ae, å→a, lowercase, oe→o, aa→a), so "bøker" is "boker".

/**
 * Irregular forms the Snowball stemmer keeps apart from their singular (sykkel/sykler, bok/bøker)
 * or cuts too far (togbane → "togb", kjøkken → "kjokk"). Each entry is the stem, then every form
 * that has it. A form also applies as the last part of a compound ("sparkesykler" → "sparkesykkel")
 * when it has at least four letters.
 */
export const IRREGULAR_FORMS: readonly (readonly [stem: string, ...forms: string[]])[] = [
  ["sykkel", "sykkel", "sykler", "sykkelen", "syklene", "sykkels", "syklar"],
  ["bok", "bok", "boker", "boka", "boken", "bokene"],
  ["kjokken", "kjokken", "kjokkenet", "kjokkener", "kjokkena", "kjokkenene"],
  ["ban", "bane", "baner", "banen", "banene", "bana"],
  ["teater", "teater", "teatre", "teateret", "teatret", "teatrene"],
  ["engel", "engel", "engler", "engelen", "englene"],
  ["nokkel", "nokkel", "nokler", "nokkelen", "noklene"],
  ["finger", "finger", "fingre", "fingrer", "fingeren", "fingrene"],
  ["monster", "monster", "monstre", "monsteret", "monstrene"],
  ["tiger", "tiger", "tigre", "tigrer", "tigeren", "tigrene"],
  ["and", "ender", "anda", "anden", "endene"],
  ["mann", "mann", "menn", "mannen", "mennene"],
  ["fot", "fot", "fotter", "foten", "fottene"],
  ["hand", "hand", "hender", "handa", "handen", "hendene"],
  ["tann", "tann", "tenner", "tanna", "tannen", "tennene"],
  ["klaer", "klaer", "klaerne", "kles"],
  ["mus", "mus", "musa", "musen", "musene"],
  // Snowball takes the s of "boks" for a genitive: a box is no book.
  ["boks", "boks", "boksen", "bokser", "boksene"],
];

/**
 * Everyday words for the same thing: a query for one word of a group also finds the others, ranked
 * below what it finds as typed. One-way entries (`oneWay`) widen only from the first word: "spill"
 * finds "brettspill" and "kortspill" anyway (they contain it), while "brettspill" must not find
 * every game console.
 */
export const SYNONYMS: readonly { words: readonly string[]; oneWay?: true }[] = [
  { words: ["bamse", "kosedyr", "toydyr", "teddybjorn", "kosebamse"] },
  { words: ["klosser", "byggeklosser", "legoklosser", "duploklosser"] },
  { words: ["barnevogn", "vogn"], oneWay: true },
  { words: ["vogn", "barnevogn", "dukkevogn", "trillevogn"], oneWay: true },
  { words: ["hotwheels", "hot wheels"] },
  { words: ["kostyme", "utkledning", "utkledningsklaer", "kostymer"] },
  { words: ["lopesykkel", "balansesykkel"] },
  { words: ["scooter", "sparkesykkel"] },
  { words: ["fargeblyanter", "fargestifter", "fargeblyant"] },
  { words: ["spillkonsoll", "konsoll", "nintendo", "playstation", "ps4", "ps5", "xbox"], oneWay: true },
  { words: ["babyalarm", "babycall", "babymonitor"] },
  { words: ["plastelina", "modellkitt", "modelleire", "trolldeig", "play doh"] },
  { words: ["fjernstyrt", "radiostyrt", "fjernkontrollert"] },
  { words: ["lekehus", "lekestue"] },
  { words: ["tegnesaker", "tegnesett", "fargestifter", "fargeblyanter", "tusjer"] },
  { words: ["pirat", "sjorover", "sjorovere", "piratskip"] },
  { words: ["ipad", "nettbrett"] },
  { words: ["lokomotiv", "tog"], oneWay: true },
  // Duplo is Lego's: "lego duplo" finds a "Duplo" listing, "lego" finds Duplo below the Lego titles.
  { words: ["lego", "duplo"], oneWay: true },
  { words: ["sandkasseleker", "sandleker", "strandleker", "sandkassesett", "bottesett"] },
  { words: ["strykeperler", "hamaperler", "perler", "perlebrett"] },
  { words: ["maling", "malesett", "fingermaling", "vannfarger"] },
  { words: ["racerbane", "bilbane", "racerbilbane"] },
  { words: ["baeresele", "baerestol"] },
];

/**
 * Words that hold a shorter word without being a kind of it: a "Playmobil" is no "bil", a "basseng"
 * no "seng", a "boks" no "bok", "skinner" no "ski", a "batteri" no "båt". A title with one of them does not match the
 * shorter word in the title's tiers (it still matches among the rest).
 */
export const NOT_COMPOUNDS: readonly string[] = [
  "playmobil",
  "basseng",
  "batman",
  // "båt" folds to "bat"
  "batteri",
  "boks",
  "bokser",
  "skinne",
  "skinner",
  "skinnene",
];

/**
 * Small words a parent types between the words that matter ("klær til dukker", "tog med skinner"):
 * the stemmed title does not require them when the query has other words. Folded ("på" is "pa").
 */
export const STOPWORDS: readonly string[] = [
  "til",
  "med",
  "for",
  "fra",
  "som",
  "den",
  "det",
  "pa",
  "og",
  "om",
  "av",
  "en",
  "et",
  "ei",
  "i",
];
