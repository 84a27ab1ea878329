// Deterministic, realistic Norwegian listings for benchmarks (10,000 to 1,000,000 rows), oldest first.
import { listingSlug } from "../../domain/slug";
import { AGE_RANGES, CATEGORY_KEYS } from "../../domain/taxonomy";

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS: Record<string, string[]> = {
  lego: [
    "Legoklosser",
    "Lego Duplo båt",
    "Lego Technic bil",
    "Lego City politistasjon",
    "Lego Friends hus",
    "Duplo togbane",
    "Lego Ninjago drage",
  ],
  biler: ["Lekebil", "Brannbil", "Traktor med henger", "Racerbane", "Fjernstyrt bil", "Gravemaskin", "Politibil med lys"],
  dukker: ["Dukkevogn", "Babydukke", "Dukkehus i tre", "Barbie med klær", "Dukkeseng", "Tøydyr bamse"],
  puslespill: ["Puslespill 1000 brikker", "Gulvpuslespill", "Knottepuslespill", "3D-puslespill", "Puslespill med dyr"],
  spill: ["Brettspill Ludo", "Kortspill", "Sjakkbrett", "Familiespill", "Memory-spill", "Yatzy"],
  baby: ["Babygym", "Rangle", "Bæresele", "Babysete", "Lekematte", "Stablekopper"],
  sport: ["Fotball", "Sykkelhjelm", "Slalåmski", "Skøyter", "Tursykkel", "Langrennsski", "Svømmebriller"],
  elektronikk: ["Nettbrett for barn", "Walkie-talkie", "Leketelefon", "Kamera for barn", "Karaokeanlegg"],
  kreativt: ["Tegnesaker", "Perlebrett", "Modellkitt", "Malesett", "Strikkesett", "Fargeblyanter"],
  "ute-lek": ["Sparkesykkel", "Sandkassesett", "Akebrett", "Huske", "Trampoline", "Vannpistol", "Balansesykkel"],
  annet: ["Bøker om dinosaurer", "Barnebøker", "Utkledningsklær", "Ryggsekk", "Nattlampe", "Tegneseriepakke"],
};
const ADJ = [
  "Pen",
  "Lite brukt",
  "Nesten ny",
  "Godt brukt",
  "Stor",
  "Liten",
  "Rosa",
  "Blå",
  "Grønn",
  "Ærlig talt ny",
  "Søt",
  "Morsom",
  "Komplett",
];
const DESC = [
  "Fra røykfritt og dyrefritt hjem.",
  "Alle deler er med, og esken følger med.",
  "Noen små riper, men fungerer som den skal.",
  "Barna har vokst fra den. Hentes på Grünerløkka eller sendes mot porto.",
  "Perfekt som gave. Kan møtes i sentrum.",
  "Brukt i to somre, fortsatt i god stand.",
  "Bytter gjerne mot noe for en treåring.",
  "Prisen kan diskuteres ved rask handel.",
  "Vasket og klar for nye eventyr.",
  "Se bildene for tilstand. Førstemann til mølla.",
];
const POSTAL = [
  "0150",
  "0151",
  "0152",
  "0160",
  "0250",
  "0350",
  "0450",
  "0550",
  "0650",
  "5003",
  "5006",
  "7010",
  "7030",
  "4006",
  "4010",
  "9008",
  "4610",
  "3015",
  "1606",
  "2317",
];

export interface BenchListing {
  id: string;
  user_id: string;
  title: string;
  description: string;
  category: string;
  age_range: string;
  condition_rating: number;
  price: number | null;
  is_free: number;
  is_trade_offer: number;
  postal_code: string;
  images: string;
  status: string;
  is_hidden: number;
  seo_slug: string;
  created_at: string;
  updated_at: string;
  /** "Kan sendes" (1) with its parcel size; absent: "Hentes" only. */
  can_ship?: number;
  parcel_size?: string | null;
}

function uuid(r: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16)).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function* generateListings(count: number, userIds: string[], seed = 1): Generator<BenchListing> {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const start = Date.parse("2025-11-22T00:00:00Z");
  // A year of listings, oldest first (each row gets a random moment in its own slice of the year), so
  // a million rows stream into the database in creation order without being held and sorted.
  const slice = (365 * 86_400_000) / count;
  for (let i = 0; i < count; i++) {
    const category = pick(CATEGORY_KEYS);
    const title = `${pick(ADJ)} ${pick(NOUNS[category]).toLowerCase()}`.replace(/^./, (c) => c.toUpperCase());
    const free = r() < 0.12;
    const id = uuid(r);
    const created = new Date(start + Math.floor((i + r()) * slice)).toISOString();
    const status = r() < 0.9 ? "active" : pick(["reserved", "sold", "given_away", "deleted"]);
    yield {
      id,
      user_id: pick(userIds),
      title,
      description: `${pick(DESC)} ${pick(DESC)}`,
      category,
      age_range: pick(AGE_RANGES),
      condition_rating: 1 + Math.floor(r() * 5),
      price: free ? null : Math.round((20 + r() * 2500) / 10) * 10,
      is_free: free ? 1 : 0,
      is_trade_offer: r() < 0.25 ? 1 : 0,
      postal_code: pick(POSTAL),
      images: "[]",
      status,
      is_hidden: r() < 0.01 ? 1 : 0,
      seo_slug: listingSlug(title, id, 12),
      created_at: created,
      updated_at: created,
    };
  }
}
