// Graded relevance: 195 queries a parent would type,
// each with graded judgements over the fixed corpus in fixtures/search-corpus.ts, scored with
// nDCG@10 for our search (GET /api/search, the production service) and for the prototype's approach
// (title or description ILIKE '%q%', newest first), on the same data.
//
// Grades: 3 = what the parent is looking for; 2 = clearly relevant (the same kind of thing, a set
// that contains it, something made for it); 1 = related (an accessory, a mention); unlisted = 0.
// The judgements were written from the listings' text and the query's intent, not from what either
// search returns; some queries are ones our search cannot answer yet (synonyms, real typos, ages).
// A failing threshold is a ranking problem to fix in the search service, not a judgement to loosen.
//
// The test prints the report; `npm run bench:relevance` writes it to tests/bench/results/relevance.md.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { AgeRange, CategoryKey } from "../../../domain/taxonomy";
import { createListing, createUser, deleteAllListings } from "../../factories";
import { CORPUS } from "../fixtures/search-corpus";
import { asVisitor, Client } from "../support/http";

type Grades = Record<string, 1 | 2 | 3>;
type Group = "brand" | "compound" | "folding" | "plural" | "typo" | "age" | "synonym" | "phrase" | "word";
interface Judged {
  q: string;
  group: Group;
  grades: Grades;
}

const K = 10;
/**
 * Mean nDCG@10 our search must reach on the set, and by how much it must beat the LIKE approach's
 * mean (measured 0.829 against 0.674: tests/bench/results/relevance.md). The corpus and its order
 * are fixed, so the figures are exact; dropping the query's æ/ø/å folding gives 0.775, ranking
 * newest first without the title tiers 0.802.
 */
const MIN_NDCG = 0.82;
const MIN_LEAD = 0.14;

/** Every listing of one age group or category at one grade (for age and "baby" queries). */
const byAge = (age: AgeRange, grade: 1 | 2 | 3): Grades =>
  Object.fromEntries(CORPUS.filter((l) => l.age === age).map((l) => [l.key, grade]));
const byCategory = (category: CategoryKey, grade: 1 | 2 | 3): Grades =>
  Object.fromEntries(CORPUS.filter((l) => l.category === category).map((l) => [l.key, grade]));

const LEGO_SETS = [
  "legoklosser-boks",
  "technic-gravemaskin",
  "technic-racerbil",
  "city-politistasjon",
  "city-brannstasjon",
  "friends-hus",
  "ninjago-drage",
  "star-wars-xwing",
  "lego-minifigurer",
  "lego-byggeplater",
  "lego-galtvort",
  "creator-dinosaur",
  "lego-batman",
];
const DUPLO = ["duplo-bat", "duplo-togbane", "duplo-kasse", "duplo-bondegard"];
const PLAYMOBIL = ["playmobil-bondegard", "playmobil-skip", "playmobil-politi", "playmobil-figurer", "playmobil-dukkehus"];
const PUZZLES = [
  "puslespill-lofoten",
  "knottepuslespill",
  "ravensburger-globus",
  "gulvpuslespill",
  "frost-puslespill",
  "puslespill-pakke",
  "norgeskart-tre",
  "puslespill-500",
];
const SCOOTERS = ["sparkesykkel-aerlig", "micro-mini", "sparkesykkel-led"];
const DOLL_PRAMS = ["dukkevogn-tre", "dukkevogn-rosa", "dukkevogn-baby-born"];
const BOOKS = ["boker-dinosaurer", "barneboker", "pekeboker", "harry-potter-boker", "astrid-lindgren"];
const SOFT_TOYS = ["kosebamse", "toydyr-pose", "bamse-og-kylling", "enhjorning"];
const BIKES = ["barnesykkel-20", "barnesykkel-16", "balansesykkel", "trehjulssykkel"];
const DINOS = ["schleich-dino", "boker-dinosaurer", "creator-dinosaur"];

const all = (keys: string[], grade: 1 | 2 | 3): Grades => Object.fromEntries(keys.map((k) => [k, grade]));

const lego: Grades = { ...all(LEGO_SETS, 3), ...all(DUPLO, 2), "lego-oppbevaring": 1, "lego-idebok": 1, "mega-bloks": 1 };
const duplo: Grades = { ...all(DUPLO, 3), "mega-bloks": 1 };
const toyCars: Grades = {
  ...all(["lekebil-tre", "lekebiler-pose", "ambulanse", "brannbil-lyd", "politibil-lyd"], 3),
  ...all(["bruder-lastebil", "monstertruck", "fjernstyrt-bil", "hot-wheels-bane", "modellbiler"], 2),
  ...all(["parkeringshus", "bilbane-tre", "carrera"], 1),
};
const dollHouses: Grades = { ...all(["dukkehus-tre", "barbie-drommehus", "playmobil-dukkehus"], 3), sylvanian: 2, "friends-hus": 1 };
const trackTrains: Grades = {
  ...all(["brio-togbane", "duplo-togbane", "lillabo"], 3),
  ...all(["togskinner-ekstra", "brio-batteritog", "thomas-tog", "brio-kran", "marklin"], 2),
};
const trains: Grades = {
  ...all(["brio-togbane", "duplo-togbane", "lillabo", "brio-batteritog", "thomas-tog", "marklin"], 3),
  ...all(["togskinner-ekstra", "brio-kran", "thomas-bok"], 2),
};
const kitchen: Grades = { lekekjokken: 3, lekemat: 2, lekebutikk: 1 };
const bikes: Grades = { ...all(BIKES, 3), ...all(SCOOTERS, 1), sykkelhjelm: 1, "babysete-sykkel": 1 };
const dollClothes: Grades = { dukkeklaer: 3, "baby-born": 2, "barbie-5": 2 };
const legoBricks: Grades = { "legoklosser-boks": 3, "duplo-kasse": 2, "lego-byggeplater": 1, "mega-bloks": 1, "lego-oppbevaring": 1 };
const teddy: Grades = { kosebamse: 3, "bamse-og-kylling": 3, "toydyr-pose": 2, enhjorning: 1 };
const softToys: Grades = { ...all(SOFT_TOYS, 3), "maileg-mus": 1 };
const books: Grades = { ...all(BOOKS, 3), "lego-idebok": 2, "thomas-bok": 2, donald: 1, klistremerker: 1, "bok-hylle": 1 };
const boat: Grades = { "duplo-bat": 3, "playmobil-skip": 2, badeleker: 1 };
const dinos: Grades = all(DINOS, 3);
const puzzles: Grades = { ...all(PUZZLES, 3), puslematte: 1 };
const fjernstyrt: Grades = { "fjernstyrt-bil": 3, monstertruck: 2, "fjernstyrt-helikopter": 1 };
const skates: Grades = { skoyter: 3, hockeykolle: 1 };
const slalom: Grades = { slalamski: 3, skihjelm: 1 };
const carrier: Grades = { baeresele: 3 };
const walker: Grades = { gavogn: 3, "dukkevogn-tre": 1, sparkebil: 1 };
const puppets: Grades = { handdukker: 3, dukketeater: 2 };
const dressUp: Grades = { utkledning: 3, "elsa-kjole": 2, spiderman: 2, ansiktsmaling: 1 };
const farm: Grades = { ...all(["duplo-bondegard", "playmobil-bondegard", "bondegard-tre"], 3), gulvpuslespill: 1, knottepuslespill: 1 };
const horses: Grades = { "schleich-hester": 3, gyngehest: 1 };
const switchGrades: Grades = { "nintendo-switch": 3, "mario-kart": 2 };

const JUDGED: Judged[] = [
  // Brands and product lines
  { q: "lego", group: "brand", grades: lego },
  { q: "LEGO", group: "brand", grades: lego },
  { q: "duplo", group: "brand", grades: duplo },
  { q: "lego duplo", group: "brand", grades: duplo },
  { q: "lego technic", group: "brand", grades: { "technic-gravemaskin": 3, "technic-racerbil": 3 } },
  { q: "technic", group: "brand", grades: { "technic-gravemaskin": 3, "technic-racerbil": 3 } },
  { q: "lego city", group: "brand", grades: { "city-politistasjon": 3, "city-brannstasjon": 3, "lego-minifigurer": 1 } },
  { q: "lego friends", group: "brand", grades: { "friends-hus": 3 } },
  { q: "ninjago", group: "brand", grades: { "ninjago-drage": 3, "lego-minifigurer": 2 } },
  { q: "lego star wars", group: "brand", grades: { "star-wars-xwing": 3, "lego-minifigurer": 2 } },
  { q: "harry potter lego", group: "brand", grades: { "lego-galtvort": 3, "harry-potter-boker": 1 } },
  { q: "harry potter", group: "brand", grades: { "harry-potter-boker": 3, "lego-galtvort": 3 } },
  {
    q: "brio",
    group: "brand",
    grades: { "brio-togbane": 3, "brio-batteritog": 3, "brio-kran": 3, lillabo: 2, "thomas-tog": 2, "togskinner-ekstra": 2 },
  },
  { q: "playmobil", group: "brand", grades: all(PLAYMOBIL, 3) },
  { q: "barbie", group: "brand", grades: { "barbie-5": 3, "barbie-drommehus": 3, "lol-dukker": 1 } },
  { q: "baby born", group: "brand", grades: { "baby-born": 3, "dukkevogn-baby-born": 2, "babydukke-myk": 1 } },
  { q: "hot wheels", group: "brand", grades: { "hot-wheels-bane": 3, "lekebiler-pose": 2 } },
  { q: "ravensburger", group: "brand", grades: { "ravensburger-globus": 3, "puslespill-lofoten": 3, labyrint: 3 } },
  { q: "stokke", group: "brand", grades: { "tripp-trapp": 3 } },
  { q: "tripp trapp", group: "brand", grades: { "tripp-trapp": 3, "barnestol-tre": 1 } },
  { q: "micro sparkesykkel", group: "brand", grades: { "micro-mini": 3, "sparkesykkel-aerlig": 1, "sparkesykkel-led": 1 } },
  { q: "emmaljunga", group: "brand", grades: { barnevogn: 3 } },
  { q: "babybjørn", group: "brand", grades: { vippestol: 3 } },
  { q: "ergobaby", group: "brand", grades: carrier },
  { q: "sylvanian", group: "brand", grades: { sylvanian: 3 } },
  { q: "maileg", group: "brand", grades: { "maileg-mus": 3 } },
  { q: "bruder", group: "brand", grades: { "bruder-gravemaskin": 3, "bruder-lastebil": 3 } },
  { q: "märklin", group: "brand", grades: { marklin: 3 } },
  { q: "carrera", group: "brand", grades: { carrera: 3 } },
  { q: "nintendo switch", group: "brand", grades: switchGrades },
  { q: "switch", group: "brand", grades: switchGrades },
  { q: "mario kart", group: "brand", grades: { "mario-kart": 3, "nintendo-switch": 2 } },
  { q: "pokemon", group: "brand", grades: { "pokemon-kort": 3 } },
  { q: "pokémon kort", group: "brand", grades: { "pokemon-kort": 3 } },
  { q: "vtech", group: "brand", grades: { aktivitetsbord: 3, smartklokke: 3 } },
  { q: "toniebox", group: "brand", grades: { toniebox: 3 } },
  { q: "hama perler", group: "brand", grades: { "hama-perler": 3, perlebrett: 2 } },
  { q: "schleich", group: "brand", grades: { "schleich-dino": 3, "schleich-hester": 3 } },
  { q: "nerf", group: "brand", grades: { nerf: 3 } },
  { q: "frost", group: "brand", grades: { "frost-puslespill": 3, "elsa-kjole": 3 } },
  { q: "spiderman", group: "brand", grades: { spiderman: 3 } },
  { q: "kaptein sabeltann", group: "brand", grades: { "kaptein-sabeltann": 3 } },
  { q: "ikea", group: "brand", grades: { lillabo: 3 } },
  { q: "magformers", group: "brand", grades: { magformers: 3 } },
  { q: "pippi", group: "brand", grades: { "astrid-lindgren": 3, toniebox: 2 } },
  { q: "donald", group: "brand", grades: { donald: 3 } },
  { q: "gruffalo", group: "brand", grades: { barneboker: 2, toniebox: 2 } },
  { q: "thomas toget", group: "brand", grades: { "thomas-tog": 3, "thomas-bok": 2 } },
  // Compound words
  { q: "lekebil", group: "compound", grades: toyCars },
  { q: "dukkevogn", group: "compound", grades: all(DOLL_PRAMS, 3) },
  { q: "dukkehus", group: "compound", grades: dollHouses },
  { q: "togbane", group: "compound", grades: trackTrains },
  { q: "lekekjøkken", group: "compound", grades: kitchen },
  { q: "sparkesykkel", group: "compound", grades: all(SCOOTERS, 3) },
  { q: "balansesykkel", group: "compound", grades: { balansesykkel: 3, trehjulssykkel: 1, "barnesykkel-16": 1 } },
  { q: "trehjulssykkel", group: "compound", grades: { trehjulssykkel: 3, balansesykkel: 1 } },
  {
    q: "barnesykkel",
    group: "compound",
    grades: { "barnesykkel-20": 3, "barnesykkel-16": 3, balansesykkel: 2, trehjulssykkel: 2, sykkelhjelm: 1, "babysete-sykkel": 1 },
  },
  { q: "barnevogn", group: "compound", grades: { barnevogn: 3 } },
  { q: "bilstol", group: "compound", grades: { bilstol: 3, "babysete-sykkel": 1 } },
  { q: "barnestol", group: "compound", grades: { "barnestol-tre": 3, "tripp-trapp": 3, vippestol: 1 } },
  { q: "dukkeseng", group: "compound", grades: { dukkeseng: 3, "maileg-mus": 1 } },
  { q: "dukkeklær", group: "compound", grades: dollClothes },
  { q: "puslespill", group: "compound", grades: puzzles },
  { q: "knottepuslespill", group: "compound", grades: { knottepuslespill: 3, gulvpuslespill: 1 } },
  { q: "gulvpuslespill", group: "compound", grades: { gulvpuslespill: 3, knottepuslespill: 1, "puslespill-pakke": 1 } },
  {
    q: "brettspill",
    group: "compound",
    grades: {
      ludo: 3,
      stigespill: 3,
      "monopol-junior": 3,
      "kaptein-sabeltann": 3,
      labyrint: 3,
      alfapet: 3,
      sjakk: 2,
      "alias-kluring": 2,
      memory: 1,
      twister: 1,
      "uno-yatzy": 1,
    },
  },
  {
    q: "byggeklosser",
    group: "compound",
    grades: { treklosser: 3, "mega-bloks": 3, "legoklosser-boks": 3, "duplo-kasse": 3, magformers: 2, gavogn: 1, "lego-byggeplater": 1 },
  },
  { q: "legoklosser", group: "compound", grades: legoBricks },
  { q: "treklosser", group: "compound", grades: { treklosser: 3, gavogn: 1 } },
  { q: "kosebamse", group: "compound", grades: { kosebamse: 3, "toydyr-pose": 2, "bamse-og-kylling": 2, enhjorning: 2 } },
  { q: "kosedyr", group: "compound", grades: softToys },
  { q: "badeleker", group: "compound", grades: { badeleker: 3, badeball: 1, "duplo-bat": 1 } },
  { q: "strandleker", group: "compound", grades: { badeball: 3, sandkassesett: 2, badebasseng: 1 } },
  { q: "sandkasse", group: "compound", grades: { "sandkasse-lokk": 3, sandkassesett: 3, lekeapparat: 1, badeball: 1 } },
  { q: "sandkasseleker", group: "compound", grades: { sandkassesett: 3, badeball: 2, "bruder-gravemaskin": 1, "traktor-henger": 1 } },
  { q: "racerbane", group: "compound", grades: { carrera: 3, "hot-wheels-bane": 2, "bilbane-tre": 1 } },
  { q: "bilbane", group: "compound", grades: { "hot-wheels-bane": 3, carrera: 3, "bilbane-tre": 3, parkeringshus: 1, bilmatte: 1 } },
  { q: "gravemaskin", group: "compound", grades: { "bruder-gravemaskin": 3, "technic-gravemaskin": 2 } },
  { q: "brannbil", group: "compound", grades: { "brannbil-lyd": 3, "city-brannstasjon": 1 } },
  { q: "politibil", group: "compound", grades: { "politibil-lyd": 3, "city-politistasjon": 1, "playmobil-politi": 1 } },
  { q: "lastebil", group: "compound", grades: { "bruder-lastebil": 3 } },
  { q: "rattkjelke", group: "compound", grades: { rattkjelke: 3, akebrett: 1 } },
  { q: "akebrett", group: "compound", grades: { akebrett: 3, rattkjelke: 1, pulk: 1 } },
  { q: "lekestue", group: "compound", grades: { lekestue: 3, leketelt: 1, lekeapparat: 1 } },
  { q: "langrennsski", group: "compound", grades: { "langrennsski-120": 3, barneski: 3, skisko: 1, skistaver: 1 } },
  { q: "sykkelhjelm", group: "compound", grades: { sykkelhjelm: 3, skihjelm: 1 } },
  { q: "fotballmål", group: "compound", grades: { fotballmal: 3, fotball: 1 } },
  { q: "utkledningsklær", group: "compound", grades: dressUp },
  { q: "prinsessekjole", group: "compound", grades: { "elsa-kjole": 3, utkledning: 2 } },
  { q: "strykeperler", group: "compound", grades: { perlebrett: 3, "hama-perler": 3 } },
  { q: "lekematte", group: "compound", grades: { babygym: 3, bilmatte: 2, turnmatte: 1 } },
  { q: "sjørøverskip", group: "compound", grades: { "playmobil-skip": 3, "kaptein-sabeltann": 1 } },
  { q: "nattlampe", group: "compound", grades: { nattlampe: 3, globus: 2 } },
  { q: "badebasseng", group: "compound", grades: { badebasseng: 3 } },
  // Typed without æ, ø, å (or with them)
  { q: "bøker", group: "folding", grades: books },
  { q: "boker", group: "folding", grades: books },
  { q: "båt", group: "folding", grades: boat },
  { q: "bat", group: "folding", grades: boat },
  { q: "lekekjokken", group: "folding", grades: kitchen },
  { q: "dukkeklaer", group: "folding", grades: dollClothes },
  { q: "skøyter", group: "folding", grades: skates },
  { q: "skoyter", group: "folding", grades: skates },
  { q: "slalåmski", group: "folding", grades: slalom },
  { q: "slalamski", group: "folding", grades: slalom },
  { q: "babybjorn", group: "folding", grades: { vippestol: 3 } },
  { q: "marklin", group: "folding", grades: { marklin: 3 } },
  { q: "gåvogn", group: "folding", grades: walker },
  { q: "gavogn", group: "folding", grades: walker },
  { q: "bæresele", group: "folding", grades: carrier },
  { q: "baeresele", group: "folding", grades: carrier },
  { q: "baresele", group: "folding", grades: carrier },
  { q: "hånddukker", group: "folding", grades: puppets },
  { q: "handdukke", group: "folding", grades: puppets },
  { q: "bondegard", group: "folding", grades: farm },
  { q: "tog bane", group: "folding", grades: trackTrains },
  { q: "dukke vogn", group: "folding", grades: all(DOLL_PRAMS, 3) },
  { q: "lego klosser", group: "folding", grades: legoBricks },
  // Singular and plural
  { q: "lekebiler", group: "plural", grades: toyCars },
  { q: "dukkevogner", group: "plural", grades: all(DOLL_PRAMS, 3) },
  { q: "sparkesykler", group: "plural", grades: all(SCOOTERS, 3) },
  { q: "sykkel", group: "plural", grades: bikes },
  { q: "sykler", group: "plural", grades: bikes },
  { q: "bamse", group: "plural", grades: teddy },
  { q: "bamser", group: "plural", grades: teddy },
  { q: "bok", group: "plural", grades: books },
  { q: "dinosaur", group: "plural", grades: dinos },
  { q: "dinosaurer", group: "plural", grades: dinos },
  { q: "hest", group: "plural", grades: horses },
  { q: "hester", group: "plural", grades: horses },
  { q: "perler", group: "plural", grades: { "hama-perler": 3, perlebrett: 3 } },
  { q: "minifigurer", group: "plural", grades: { "lego-minifigurer": 3, "playmobil-figurer": 1 } },
  { q: "vannpistol", group: "plural", grades: { vannpistoler: 3 } },
  // Real typos
  { q: "sparkesykel", group: "typo", grades: all(SCOOTERS, 3) },
  { q: "playmobill", group: "typo", grades: all(PLAYMOBIL, 3) },
  { q: "barbi", group: "typo", grades: { "barbie-5": 3, "barbie-drommehus": 3 } },
  { q: "trampolin", group: "typo", grades: { trampoline: 3 } },
  { q: "pusslespill", group: "typo", grades: puzzles },
  // Ages
  { q: "1 år", group: "age", grades: { ...byAge("0-2 år", 2), "babydukke-myk": 3, sparkebil: 3, knottepuslespill: 3 } },
  { q: "fra 3 år", group: "age", grades: { ...byAge("3-5 år", 2), magformers: 3, "brio-togbane": 3, memory: 3 } },
  { q: "6 år", group: "age", grades: { ...byAge("6-8 år", 2), spiderman: 3, "barnesykkel-20": 3, "puslespill-pakke": 3 } },
  { q: "treåring", group: "age", grades: byAge("3-5 år", 2) },
  { q: "baby", group: "age", grades: { ...byAge("0-2 år", 2), ...byCategory("baby", 3), "baby-born": 1, "dukkevogn-baby-born": 1 } },
  // Synonyms the search does not know
  { q: "radiostyrt bil", group: "synonym", grades: fjernstyrt },
  { q: "lekehus", group: "synonym", grades: { lekestue: 3, leketelt: 1 } },
  { q: "alpinski", group: "synonym", grades: slalom },
  { q: "snowracer", group: "synonym", grades: { rattkjelke: 3 } },
  { q: "tegnesaker", group: "synonym", grades: { fargestifter: 2, malesett: 1, lysbord: 1 } },
  { q: "pirat", group: "synonym", grades: { "playmobil-skip": 2, "kaptein-sabeltann": 1 } },
  { q: "ipad", group: "synonym", grades: { nettbrett: 2 } },
  // Several words
  { q: "fjernstyrt bil", group: "phrase", grades: fjernstyrt },
  { q: "sykkel med støttehjul", group: "phrase", grades: { "barnesykkel-16": 3 } },
  { q: "ski 100 cm", group: "phrase", grades: { barneski: 3, "langrennsski-120": 1 } },
  { q: "puslespill 1000 brikker", group: "phrase", grades: { "puslespill-lofoten": 3, "puslespill-500": 2, puslematte: 1 } },
  { q: "dukke med klær", group: "phrase", grades: { "baby-born": 3, "barbie-5": 3, dukkeklaer: 2 } },
  { q: "stor bamse", group: "phrase", grades: { kosebamse: 3, enhjorning: 1, "toydyr-pose": 1 } },
  { q: "fotball str 4", group: "phrase", grades: { fotball: 3 } },
  { q: "lego politi", group: "phrase", grades: { "city-politistasjon": 3, "playmobil-politi": 1 } },
  {
    q: "brio tog",
    group: "phrase",
    grades: { "brio-togbane": 3, "brio-batteritog": 3, "thomas-tog": 2, lillabo: 2, "brio-kran": 1, "togskinner-ekstra": 1 },
  },
  {
    q: "tog med skinner",
    group: "phrase",
    grades: {
      "duplo-togbane": 3,
      "brio-togbane": 3,
      lillabo: 3,
      marklin: 2,
      "togskinner-ekstra": 2,
      "brio-batteritog": 2,
      "thomas-tog": 2,
    },
  },
  { q: "kjøkken med lekemat", group: "phrase", grades: { lekekjokken: 3, lekemat: 2 } },
  { q: "klær til dukker", group: "phrase", grades: dollClothes },
  { q: "walkie talkie", group: "phrase", grades: { "walkie-talkie": 3 } },
  // Single words
  { q: "tog", group: "word", grades: trains },
  { q: "ski", group: "word", grades: { barneski: 3, "langrennsski-120": 3, slalamski: 3, skistaver: 1, skisko: 1, skihjelm: 1, pulk: 1 } },
  { q: "hjelm", group: "word", grades: { sykkelhjelm: 3, skihjelm: 3 } },
  { q: "fotball", group: "word", grades: { fotball: 3, fotballmal: 2 } },
  { q: "traktor", group: "word", grades: { "traktor-henger": 3, "duplo-bondegard": 1, "playmobil-bondegard": 1 } },
  { q: "kamera", group: "word", grades: { barnekamera: 3, drone: 2, babycall: 1, smartklokke: 1 } },
  { q: "robot", group: "word", grades: { "robot-koding": 3 } },
  { q: "koding", group: "word", grades: { "robot-koding": 3 } },
  { q: "sjakk", group: "word", grades: { sjakk: 3 } },
  { q: "yatzy", group: "word", grades: { "uno-yatzy": 3 } },
  { q: "kortspill", group: "word", grades: { kortspill: 3, "uno-yatzy": 2, "pokemon-kort": 1 } },
  { q: "nettbrett", group: "word", grades: { nettbrett: 3 } },
  { q: "drone", group: "word", grades: { drone: 3, "fjernstyrt-helikopter": 1 } },
  { q: "babygym", group: "word", grades: { babygym: 3, uro: 1 } },
  { q: "rangle", group: "word", grades: { stablekopper: 3 } },
  { q: "staffeli", group: "word", grades: { staffeli: 3 } },
  { q: "tusjer", group: "word", grades: { fargestifter: 3 } },
  { q: "maling", group: "word", grades: { malesett: 3, ansiktsmaling: 1 } },
  { q: "modellkitt", group: "word", grades: { "play-doh": 3, "kinetisk-sand": 1 } },
  { q: "trampoline", group: "word", grades: { trampoline: 3 } },
  { q: "sklie", group: "word", grades: { sklie: 3, lekeapparat: 2 } },
  { q: "huske", group: "word", grades: { huske: 3, lekeapparat: 2 } },
  { q: "basseng", group: "word", grades: { badebasseng: 3, "friends-hus": 1, "barbie-drommehus": 1 } },
  { q: "telt", group: "word", grades: { leketelt: 3 } },
  { q: "gyngehest", group: "word", grades: { gyngehest: 3 } },
  { q: "kulebane", group: "word", grades: { kulebane: 3 } },
  { q: "ridder", group: "word", grades: { utkledning: 3, handdukker: 2 } },
  { q: "lege", group: "word", grades: { legekoffert: 3 } },
  { q: "verktøy", group: "word", grades: { verktoybenk: 3, "play-doh": 1 } },
  { q: "jordklode", group: "word", grades: { "ravensburger-globus": 3, globus: 2 } },
  { q: "mikroskop", group: "word", grades: { mikroskop: 3 } },
  { q: "lydbok", group: "word", grades: { toniebox: 3, "lydbok-cd": 2 } },
  { q: "hockey", group: "word", grades: { hockeykolle: 3, skoyter: 2 } },
];

/** DCG@k with the usual gain 2^grade − 1 and discount log2(position + 1). */
function dcg(grades: number[]): number {
  return grades.slice(0, K).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
}

function ndcg(ranked: string[], grades: Grades): number {
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((key) => grades[key] ?? 0)) / ideal;
}

const idToKey = new Map<string, string>();

/** Our search: the production endpoint, first page. */
async function ours(q: string): Promise<string[]> {
  const res = await new Client().get(`/api/search?q=${encodeURIComponent(q)}`, asVisitor());
  expect(res.status, q).toBe(200);
  const { rows } = (await res.json()) as { rows: { id: string }[] };
  return rows.map((r) => idToKey.get(r.id) ?? r.id);
}

/**
 * The prototype's approach: title or description ILIKE '%q%', active and public, newest first. SQLite's
 * LIKE folds ASCII case only, so the Norwegian capitals are lowered before comparing (as ILIKE would).
 */
async function likeApproach(q: string): Promise<string[]> {
  const lower = (col: string) => `replace(replace(replace(${col}, 'Æ', 'æ'), 'Ø', 'ø'), 'Å', 'å')`;
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { results } = await env.DB.prepare(
    `SELECT id FROM listings WHERE status = 'active' AND is_hidden = 0
       AND (${lower("title")} LIKE ?1 ESCAPE '\\' OR ${lower("coalesce(description, '')")} LIKE ?1 ESCAPE '\\')
     ORDER BY created_at DESC LIMIT 50`,
  )
    .bind(pattern)
    .all<{ id: string }>();
  return results.map((r) => idToKey.get(r.id) ?? r.id);
}

/** A fixed shuffle (FNV-1a of the key), so creation order — and with it "newest first" — favours no topic. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

beforeAll(async () => {
  await deleteAllListings();
  const seller = await createUser({ displayName: "Korpus" });
  const ordered = [...CORPUS].sort((a, b) => hash(a.key) - hash(b.key));
  const start = Date.parse("2026-09-01T08:00:00Z");
  for (const [i, item] of ordered.entries()) {
    const row = await createListing({
      userId: seller.id,
      title: item.title,
      description: item.description,
      category: item.category,
      ageRange: item.age,
      conditionRating: 1 + (hash(item.key) % 5),
      price: 50 + (hash(item.key) % 40) * 25,
      createdAt: new Date(start + i * 37 * 60_000).toISOString(),
    });
    idToKey.set(row.id, item.key);
  }
});

interface Scored {
  q: string;
  group: Group;
  ours: number;
  like: number;
  top: string[];
}

describe("graded relevance: nDCG@10 on a fixed Norwegian corpus", () => {
  it("has at least 150 distinct queries, each judging listings of the corpus with at least one grade ≥ 2", () => {
    expect(JUDGED.length).toBeGreaterThanOrEqual(150);
    expect(new Set(JUDGED.map((j) => j.q)).size).toBe(JUDGED.length);
    const keys = new Set(CORPUS.map((l) => l.key));
    expect(keys.size).toBe(CORPUS.length);
    for (const j of JUDGED) {
      for (const key of Object.keys(j.grades)) expect(keys, `${j.q}: ${key}`).toContain(key);
      expect(Math.max(...Object.values(j.grades)), j.q).toBeGreaterThanOrEqual(2);
    }
  });

  it(`scores our search at nDCG@10 ≥ ${MIN_NDCG} and at least ${MIN_LEAD} above the LIKE approach`, async () => {
    const scored: Scored[] = [];
    for (const j of JUDGED) {
      const top = await ours(j.q);
      scored.push({
        q: j.q,
        group: j.group,
        ours: ndcg(top, j.grades),
        like: ndcg(await likeApproach(j.q), j.grades),
        top: top.slice(0, 3),
      });
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const oursMean = mean(scored.map((s) => s.ours));
    const likeMean = mean(scored.map((s) => s.like));
    const groups = [...new Set(scored.map((s) => s.group))].map((group) => {
      const g = scored.filter((s) => s.group === group);
      return { group, queries: g.length, ours: mean(g.map((s) => s.ours)), like: mean(g.map((s) => s.like)) };
    });
    const report = {
      queries: scored.length,
      listings: CORPUS.length,
      ours: oursMean,
      like: likeMean,
      better: scored.filter((s) => s.ours > s.like + 1e-9).length,
      worse: scored.filter((s) => s.ours < s.like - 1e-9).length,
      groups,
      perQuery: scored,
    };
    // The marker line is what `npm run bench:relevance` reads.
    console.log(`RELEVANCE_REPORT ${JSON.stringify(report)}`);
    const f = (x: number) => x.toFixed(3);
    const worst = [...scored].sort((a, b) => a.ours - b.ours).slice(0, 12);
    const detail = worst.map((s) => `${s.q}: ${f(s.ours)} (LIKE ${f(s.like)}) top: ${s.top.join(", ")}`).join("\n");
    expect(oursMean, `nDCG@10 ours ${f(oursMean)} vs LIKE ${f(likeMean)}; lowest:\n${detail}`).toBeGreaterThanOrEqual(MIN_NDCG);
    expect(oursMean - likeMean, `nDCG@10 ours ${f(oursMean)} vs LIKE ${f(likeMean)}`).toBeGreaterThanOrEqual(MIN_LEAD);
    // Our search must not lose to a substring scan on any of these groups.
    for (const g of groups) expect(g.ours, `${g.group}: ours ${f(g.ours)} vs LIKE ${f(g.like)}`).toBeGreaterThanOrEqual(g.like);
    // 300 searches one after another (ours and the LIKE approach per query): room for a busy machine.
  }, 90_000);
});
