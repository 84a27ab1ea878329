// Fixed demo content: realistic Norwegian listings, conversations, a trade offer, favourites and a
// moderation case. Deterministic text and layout; ids and timestamps are made at seed time (times are
// relative to "now", so the home page always shows fresh relative times).
import type { AgeRange, CategoryKey, ListingStatus } from "../../domain/taxonomy";
import { TRADE_CHAT_TEXTS } from "../../domain/trades";
import type { Motif } from "./images";

export type AccountKey = "kari" | "ola" | "ingrid" | "lars" | "sofie" | "emil" | "nora" | "marte" | "anders";

const MIN = 1;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export interface DemoListing {
  ref: string;
  owner: AccountKey;
  title: string;
  description: string;
  category: CategoryKey;
  age: AgeRange;
  condition: 1 | 2 | 3 | 4 | 5;
  /** Whole NOK; null = free. */
  price: number | null;
  trade: boolean;
  postalCode: string;
  /** How long ago it was posted, in minutes. */
  ago: number;
  status?: ListingStatus;
  hidden?: { reason: string; ago: number };
  image: { motif: Motif; color: string; count: 1 | 2 | 3 };
}

export const LISTINGS: DemoListing[] = [
  // Kari Nordmann, Oslo
  {
    ref: "K1",
    owner: "kari",
    title: "Legoklosser i stor boks",
    description:
      "Ca. 4 kg blandede legoklosser i en stor oppbevaringsboks. Mange vanlige klosser, takstein, vinduer, hjul og noen minifigurer. Alt er vasket og klart for nye byggeprosjekter. Kan sendes med Posten mot betaling av frakt.",
    category: "lego",
    age: "6-8 år",
    condition: 3,
    price: 450,
    trade: false,
    postalCode: "0562",
    ago: 95 * MIN,
    image: { motif: "bricks", color: "#e63946", count: 3 },
  },
  {
    ref: "K2",
    owner: "kari",
    title: "Perlebrett og 5000 perler",
    description:
      "Tre perlebrett (hjerte, firkant og stjerne) og ca. 5000 strykeperler i mange farger, sortert i eske med rom. Strykepapir følger med. Bytter gjerne mot Duplo.",
    category: "kreativt",
    age: "6-8 år",
    condition: 4,
    price: 80,
    trade: true,
    postalCode: "0355",
    ago: 3 * DAY + 2 * HOUR,
    image: { motif: "pegboard", color: "#ff7eb6", count: 2 },
  },
  {
    ref: "K3",
    owner: "kari",
    title: "Kosebamse, stor brun",
    description:
      "Stor og myk bamse, ca. 45 cm. Har vært mye elsket, men er vasket på 40 grader og fremdeles i fin stand. Gis bort til noen som vil ha en ny kosevenn.",
    category: "dukker",
    age: "0-2 år",
    condition: 4,
    price: null,
    trade: false,
    postalCode: "0150",
    ago: 25 * MIN,
    image: { motif: "teddy", color: "#e63946", count: 2 },
  },
  {
    ref: "K4",
    owner: "kari",
    title: "Staffeli med tavle og papirrull",
    description:
      "Dobbeltsidig staffeli i tre: kritttavle på den ene siden og whiteboard på den andre. Papirrull og hylle til maling følger med. Noen malingsflekker, ellers fint.",
    category: "kreativt",
    age: "3-5 år",
    condition: 3,
    price: 250,
    trade: false,
    postalCode: "0182",
    ago: 9 * DAY + 5 * HOUR,
    image: { motif: "easel", color: "#2f6fdf", count: 1 },
  },
  {
    ref: "K5",
    owner: "kari",
    title: "Monopol Junior",
    description:
      "Komplett spill, alle pengesedler og brikker er med. Esken er litt slitt i hjørnene. Bytter gjerne mot et annet brettspill.",
    category: "spill",
    age: "6-8 år",
    condition: 4,
    price: 100,
    trade: true,
    postalCode: "0254",
    ago: 15 * DAY,
    image: { motif: "dice", color: "#3bb273", count: 1 },
  },
  {
    ref: "K6",
    owner: "kari",
    title: "Trehjulssykkel med skyvehåndtak",
    description:
      "Trehjulssykkel med avtakbart skyvehåndtak og fotstøtte, fra ca. 1 år. Setet er falmet av sol, og det er riper i lakken, men alt fungerer.",
    category: "ute-lek",
    age: "0-2 år",
    condition: 2,
    price: 350,
    trade: false,
    postalCode: "0655",
    ago: 30 * DAY,
    image: { motif: "tricycle", color: "#e63946", count: 2 },
  },
  {
    ref: "K7",
    owner: "kari",
    title: "Bøker om dinosaurer (6 stk)",
    description:
      "Seks faktabøker og bildebøker om dinosaurer, blant annet en stor bok med klaffer. Perfekt for små dinosaurelskere. Bytter gjerne mot puslespill.",
    category: "annet",
    age: "6-8 år",
    condition: 4,
    price: 120,
    trade: true,
    postalCode: "0150",
    ago: 3 * DAY + 4 * HOUR,
    // Traded to Ola for his floor puzzle (DEMO_DEALS): a chat that holds a whole deal.
    status: "traded",
    image: { motif: "books", color: "#ff8c42", count: 2 },
  },

  // Ola Hansen, Bergen
  {
    ref: "O1",
    owner: "ola",
    title: "Lego Duplo båt",
    description:
      "Duplo-båt som flyter i badekaret, med to figurer og en liten livbåt. Passer fint sammen med andre Duplo-sett. Kan også byttes.",
    category: "lego",
    age: "3-5 år",
    condition: 4,
    price: 150,
    trade: true,
    postalCode: "5003",
    ago: 2 * HOUR,
    image: { motif: "boat", color: "#2f6fdf", count: 3 },
  },
  {
    ref: "O2",
    owner: "ola",
    title: "Fjernstyrt bil, 4WD",
    description:
      "Rask fjernstyrt bil med firehjulstrekk og oppladbart batteri. Kjører fint både ute og inne. Lader og fjernkontroll følger med.",
    category: "biler",
    age: "9-12 år",
    condition: 4,
    price: 350,
    trade: false,
    postalCode: "5011",
    ago: 6 * DAY,
    image: { motif: "car", color: "#ff8c42", count: 2 },
  },
  {
    ref: "O3",
    owner: "ola",
    title: "Fotball str. 4",
    description: "Brukt fotball i størrelse 4. Holder lufta fint, men er tydelig brukt på kunstgress.",
    category: "sport",
    age: "9-12 år",
    condition: 2,
    price: 80,
    trade: false,
    postalCode: "5052",
    ago: 11 * DAY,
    image: { motif: "football", color: "#2b2d42", count: 1 },
  },
  {
    ref: "O4",
    owner: "ola",
    title: "Knottepuslespill i tre, 3 stk",
    description: "Tre knottepuslespill i tre: bondegårdsdyr, kjøretøy og former. Alle brikkene er med. Gis bort samlet.",
    category: "puslespill",
    age: "0-2 år",
    condition: 3,
    price: null,
    trade: false,
    postalCode: "5144",
    ago: 50 * MIN,
    image: { motif: "puzzle", color: "#ffc93c", count: 2 },
  },
  {
    ref: "O5",
    owner: "ola",
    title: "Walkie-talkie-sett, 2 stk",
    description: "To walkie-talkier med rekkevidde på ca. 2 km. Bruker AAA-batterier (ikke inkludert). Bytter mot brettspill.",
    category: "elektronikk",
    age: "6-8 år",
    condition: 4,
    price: 150,
    trade: true,
    postalCode: "5221",
    ago: 20 * DAY,
    image: { motif: "walkie", color: "#1fb5ac", count: 2 },
  },
  {
    ref: "O6",
    owner: "ola",
    title: "Utkledningsklær: ridder og prinsesse",
    description: "Riddersett med skjold og tresverd, og prinsessekjole med krone. Str. 4–6 år. Brukt på noen karnevaler, ellers pent.",
    category: "annet",
    age: "3-5 år",
    condition: 4,
    price: 100,
    trade: false,
    postalCode: "5003",
    ago: 40 * DAY,
    image: { motif: "crown", color: "#8e6cef", count: 2 },
  },

  // Ingrid Berg, Trondheim
  {
    ref: "I1",
    owner: "ingrid",
    title: "Lego Technic gravemaskin",
    description:
      "Lego Technic gravemaskin med bevegelig arm og belter. Bygget én gang og stått på hylla siden. Alle deler og instruksjonsbok er med, esken følger med.",
    category: "lego",
    age: "9-12 år",
    condition: 5,
    price: 600,
    trade: false,
    postalCode: "7010",
    ago: 26 * HOUR,
    image: { motif: "bricks", color: "#ffc93c", count: 3 },
  },
  {
    ref: "I2",
    owner: "ingrid",
    title: "Skøyter str. 30–33, justerbare",
    description: "Justerbare kunstløpskøyter, str. 30–33. Slipt før forrige sesong. Vokser med barnet i to–tre sesonger.",
    category: "sport",
    age: "6-8 år",
    condition: 3,
    price: 150,
    trade: false,
    postalCode: "7014",
    ago: 45 * DAY,
    status: "sold",
    image: { motif: "skates", color: "#2f6fdf", count: 2 },
  },
  {
    ref: "I3",
    owner: "ingrid",
    title: "Puslespill 1000 brikker – Lofoten",
    description: "Puslespill med motiv fra Reine i Lofoten. Lagt én gang, alle brikkene er talt. Bytter gjerne mot et annet puslespill.",
    category: "puslespill",
    age: "12+ år",
    condition: 5,
    price: 80,
    trade: true,
    postalCode: "7030",
    ago: 4 * DAY,
    image: { motif: "puzzle", color: "#2f6fdf", count: 1 },
  },
  {
    ref: "I4",
    owner: "ingrid",
    title: "Baby Born dukke med klær",
    description: "Baby Born-dukke med tre sett klær, flaske og smokk. Dukken drikker og tisser som den skal. Røykfritt hjem.",
    category: "dukker",
    age: "3-5 år",
    condition: 4,
    price: 250,
    trade: false,
    postalCode: "7053",
    ago: 8 * DAY,
    image: { motif: "doll", color: "#ff7eb6", count: 2 },
  },
  {
    ref: "I5",
    owner: "ingrid",
    title: "Stablekopper og rangle",
    description: "Stablekopper i ti farger og en rangle i myk plast. Tåler oppvaskmaskin. Bytter mot bøker for de minste.",
    category: "baby",
    age: "0-2 år",
    condition: 4,
    price: 50,
    trade: true,
    postalCode: "7072",
    ago: 7 * HOUR,
    image: { motif: "rattle", color: "#3bb273", count: 1 },
  },

  // Lars Johansen, Stavanger
  {
    ref: "L1",
    owner: "lars",
    title: "Lego Friends hestestall",
    description: "Lego Friends hestestall med to hester, figurer og tilbehør. Komplett med instruksjonsbok.",
    category: "lego",
    age: "6-8 år",
    condition: 4,
    price: 250,
    trade: false,
    postalCode: "4006",
    ago: 2 * DAY + 3 * HOUR,
    status: "reserved",
    image: { motif: "bricks", color: "#ff7eb6", count: 2 },
  },
  {
    ref: "L2",
    owner: "lars",
    title: "Traktor med henger",
    description: "Stor leketraktor med tipphenger og frontlaster. Kraftig plast som tåler sandkassa. Noen riper.",
    category: "biler",
    age: "3-5 år",
    condition: 3,
    price: 300,
    trade: false,
    postalCode: "4014",
    ago: 13 * DAY,
    image: { motif: "tractor", color: "#3bb273", count: 2 },
  },
  {
    ref: "L3",
    owner: "lars",
    title: "Sjakkbrett i tre med brikker",
    description: "Sammenleggbart sjakkbrett i tre, brikkene ligger i brettet. Fint for å lære barna sjakk.",
    category: "spill",
    age: "9-12 år",
    condition: 4,
    price: 150,
    trade: false,
    postalCode: "4021",
    ago: 22 * DAY,
    image: { motif: "chess", color: "#2b2d42", count: 1 },
  },
  {
    ref: "L4",
    owner: "lars",
    title: "Leketablet for barn",
    description:
      "Læringsbrett med støtsikkert deksel, bokstav- og tallspill og ladekabel. Skjermen har en liten ripe i hjørnet, ellers fungerer alt.",
    category: "elektronikk",
    age: "3-5 år",
    condition: 3,
    price: 200,
    trade: false,
    postalCode: "4312",
    ago: 18 * HOUR,
    image: { motif: "tablet", color: "#ff8c42", count: 2 },
  },
  {
    ref: "L5",
    owner: "lars",
    title: "Sandkassesett: bøtte, spade og former",
    description: "Bøtte, to spader, rive og seks sandformer. Noe falmet etter mange somre. Gis bort.",
    category: "ute-lek",
    age: "3-5 år",
    condition: 2,
    price: null,
    trade: false,
    postalCode: "4050",
    ago: 12 * DAY,
    image: { motif: "bucket", color: "#e63946", count: 1 },
  },

  // Sofie Larsen, Tromsø
  {
    ref: "S1",
    owner: "sofie",
    title: "Barneski 100 cm med bindinger",
    description:
      "Smøringsfrie barneski, 100 cm, med bindinger som passer de fleste barneskistøvler. Staver følger med. Bytter mot skøyter.",
    category: "sport",
    age: "6-8 år",
    condition: 3,
    price: 300,
    trade: true,
    postalCode: "9008",
    ago: 10 * HOUR,
    image: { motif: "skis", color: "#e63946", count: 2 },
  },
  {
    ref: "S2",
    owner: "sofie",
    title: "Babygym med buer og uro",
    description: "Babygym med lekematte, to buer og fem hengeleker. Matta er vasket. Gis bort mot henting.",
    category: "baby",
    age: "0-2 år",
    condition: 4,
    price: null,
    trade: false,
    postalCode: "9012",
    ago: 6 * DAY,
    image: { motif: "babygym", color: "#ff7eb6", count: 2 },
  },
  {
    ref: "S3",
    owner: "sofie",
    title: "Hot Wheels-bane med 20 biler",
    description: "Bilbane med loop og utskytningsrampe, og 20 Hot Wheels-biler. Noen biler har mistet litt lakk. Bytter mot Lego.",
    category: "biler",
    age: "6-8 år",
    condition: 3,
    price: 200,
    trade: true,
    postalCode: "9020",
    ago: 27 * DAY,
    image: { motif: "car", color: "#2f6fdf", count: 1 },
  },
  {
    ref: "S4",
    owner: "sofie",
    title: "Alfapet, komplett",
    description: "Klassisk Alfapet. Alle bokstavbrikkene er med, men esken er teipet. Gis bort.",
    category: "spill",
    age: "12+ år",
    condition: 2,
    price: null,
    trade: false,
    postalCode: "9100",
    ago: 35 * DAY,
    image: { motif: "cards", color: "#ffc93c", count: 1 },
  },

  // Emil Nilsen, Kristiansand
  {
    ref: "E1",
    owner: "emil",
    title: "Dukkehus i tre med møbler",
    description:
      "Stort dukkehus i tre med tre etasjer, trapp og ca. 30 møbler. Noen små merker etter bruk. Må hentes, for stort til å sendes.",
    category: "dukker",
    age: "3-5 år",
    condition: 3,
    price: 700,
    trade: false,
    postalCode: "4608",
    ago: 3 * DAY + 6 * HOUR,
    image: { motif: "dollhouse", color: "#ffc93c", count: 3 },
  },
  {
    ref: "E2",
    owner: "emil",
    title: "Programmerbar robot for nybegynnere",
    description: "Robot som programmeres med app eller kort. Lærer barna enkel koding på en leken måte. Som ny, brukt noen få ganger.",
    category: "elektronikk",
    age: "9-12 år",
    condition: 5,
    price: 450,
    trade: false,
    postalCode: "4614",
    ago: 16 * DAY,
    image: { motif: "robot", color: "#1fb5ac", count: 2 },
  },
  {
    ref: "E3",
    owner: "emil",
    title: "Lego klosser 1000 stk – billig!",
    description: "1000 kompatible byggeklosser i mange farger. Ikke originale, men passer sammen med vanlige klosser.",
    category: "lego",
    age: "6-8 år",
    condition: 4,
    price: 199,
    trade: false,
    postalCode: "4630",
    ago: 4 * DAY,
    hidden: { reason: "Villedende informasjon: annonsert som Lego, men er kopiklosser", ago: 1 * DAY },
    image: { motif: "bricks", color: "#3bb273", count: 1 },
  },
  {
    ref: "E4",
    owner: "emil",
    title: "Brio togbane med tog og bro",
    description: "Togbane i tre med bro, tunnel, to tog og ca. 40 skinner. Kan bygges på mange måter. Bytter gjerne mot Duplo.",
    category: "biler",
    age: "3-5 år",
    condition: 4,
    price: 400,
    trade: true,
    postalCode: "4626",
    ago: 23 * HOUR,
    image: { motif: "train", color: "#e63946", count: 2 },
  },
  {
    ref: "E5",
    owner: "emil",
    title: "Bøker om dinosaurer og vulkaner (4 stk)",
    description: "Fire faktabøker med store bilder av dinosaurer, vulkaner og fossiler. Pene, ingen rifter.",
    category: "annet",
    age: "6-8 år",
    condition: 4,
    price: 90,
    trade: true,
    postalCode: "4626",
    ago: 5 * HOUR,
    image: { motif: "books", color: "#16a085", count: 1 },
  },

  // Nora Pedersen, Drammen
  {
    ref: "N1",
    owner: "nora",
    title: "Ærlig talt ny sparkesykkel",
    description:
      "Fikk den i bursdagsgave, men har bare brukt den to ganger. Ærlig talt som ny! Sammenleggbar, justerbart styre og hjul som lyser når de ruller.",
    category: "ute-lek",
    age: "6-8 år",
    condition: 5,
    price: 400,
    trade: false,
    postalCode: "3015",
    ago: 35 * MIN,
    image: { motif: "scooter", color: "#8e6cef", count: 2 },
  },
  {
    ref: "N2",
    owner: "nora",
    title: "Fargestifter og tusjer – stor pakke",
    description: "Over 100 fargestifter, tusjer og kritt i en boks. Noen er korte, men alle virker. Gis bort til en kreativ sjel.",
    category: "kreativt",
    age: "3-5 år",
    condition: 4,
    price: null,
    trade: false,
    postalCode: "3022",
    ago: 4 * HOUR,
    image: { motif: "crayons", color: "#ff7eb6", count: 1 },
  },
  {
    ref: "N3",
    owner: "nora",
    title: "Stabletårn i tre, regnbue",
    description: "Klassisk stabletårn med fem ringer i regnbuens farger. Giftfri maling, fra 1 år.",
    category: "baby",
    age: "0-2 år",
    condition: 4,
    price: 90,
    trade: false,
    postalCode: "3030",
    ago: 2 * DAY + 8 * HOUR,
    image: { motif: "rings", color: "#8e6cef", count: 1 },
  },
  {
    ref: "N4",
    owner: "nora",
    title: "Uno og Yatzy – pakke",
    description: "Uno-kortstokk og Yatzy med terninger og blokk. Kortene er ganske slitte, men alle er med. Gis bort.",
    category: "spill",
    age: "6-8 år",
    condition: 1,
    price: null,
    trade: false,
    postalCode: "3015",
    ago: 9 * DAY,
    image: { motif: "cards", color: "#e63946", count: 1 },
  },

  // Marte Moe (moderator), Fredrikstad
  {
    ref: "M1",
    owner: "marte",
    title: "Ravensburger 3D-puslespill jordklode",
    description: "3D-puslespill som blir en jordklode med stativ. 540 brikker, alle er med. Fin gave til nysgjerrige barn.",
    category: "puslespill",
    age: "9-12 år",
    condition: 5,
    price: 120,
    trade: false,
    postalCode: "1606",
    ago: 14 * DAY,
    image: { motif: "globe", color: "#2f6fdf", count: 2 },
  },
  {
    ref: "M2",
    owner: "marte",
    title: "Badeball og strandleker",
    description: "Stor badeball, frisbee og vannpistol. Brukt én sommer på hytta. Bytter gjerne mot noe til vinteren.",
    category: "sport",
    age: "3-5 år",
    condition: 3,
    price: 40,
    trade: true,
    postalCode: "1630",
    ago: 50 * DAY,
    image: { motif: "beachball", color: "#e63946", count: 1 },
  },
  // Finished deals behind the demo reviews (DEMO_DEALS): a trade between Kari and Ola, a sale by Lars.
  {
    ref: "K8",
    owner: "kari",
    title: "Brio togbane med bro og tunnel",
    description: "Brio togbane med 30 skinner, bro, tunnel og to tog. Byttet bort.",
    category: "biler",
    age: "3-5 år",
    condition: 4,
    price: 300,
    trade: true,
    postalCode: "0150",
    ago: 30 * DAY,
    status: "traded",
    image: { motif: "train", color: "#c0392b", count: 1 },
  },
  {
    ref: "O7",
    owner: "ola",
    title: "Duplo dyrehage",
    description: "Duplo dyrehage med dyr, gjerder og dyrepasser. Byttet bort.",
    category: "lego",
    age: "0-2 år",
    condition: 4,
    price: 250,
    trade: true,
    postalCode: "5003",
    ago: 28 * DAY,
    status: "traded",
    image: { motif: "bricks", color: "#2e86de", count: 1 },
  },
  {
    ref: "L6",
    owner: "lars",
    title: "Sparkesykkel med lys i hjulene",
    description: "Sparkesykkel for 3–6 år med lys i hjulene og justerbart styre. Solgt.",
    category: "ute-lek",
    age: "3-5 år",
    condition: 4,
    price: 200,
    trade: false,
    postalCode: "4006",
    ago: 6 * DAY,
    status: "sold",
    image: { motif: "scooter", color: "#8e44ad", count: 1 },
  },
  {
    ref: "O8",
    owner: "ola",
    title: "Gulvpuslespill med dinosaurer, 48 brikker",
    description: "Store, tykke brikker med dinosaurer. Alle brikkene er med. Byttet bort.",
    category: "puslespill",
    age: "3-5 år",
    condition: 4,
    price: 100,
    trade: true,
    postalCode: "5003",
    ago: 2 * DAY + 22 * HOUR,
    status: "traded",
    image: { motif: "puzzle", color: "#27ae60", count: 1 },
  },
];

export interface DemoMessage {
  /** "system": a notice from Lekebytte, as the Worker posts on every change of a trade (decision 047). */
  from: AccountKey | "system";
  text: string;
  ago: number;
  read: boolean;
}

export interface DemoConversation {
  listing: string;
  buyer: AccountKey;
  messages: DemoMessage[];
}

export const CONVERSATIONS: DemoConversation[] = [
  {
    listing: "K1",
    buyer: "ola",
    messages: [
      { from: "ola", text: "Hei! Er legoklossene fortsatt til salgs?", ago: 80 * MIN, read: true },
      { from: "kari", text: "Hei! Ja, de er fortsatt ledige 😊", ago: 72 * MIN, read: true },
      { from: "ola", text: "Så bra! Jeg bor i Bergen – kan du sende med Posten? Jeg betaler frakten.", ago: 65 * MIN, read: true },
      { from: "kari", text: "Det går fint. Boksen veier rundt 4 kg, så frakten blir ca. 150 kr.", ago: 58 * MIN, read: true },
      { from: "ola", text: "Avtale! Hva sier du til 400 kr pluss frakt?", ago: 12 * MIN, read: false },
    ],
  },
  {
    listing: "O1",
    buyer: "kari",
    messages: [
      { from: "kari", text: "Hei! Er du interessert i å bytte Duplo-båten mot perlebrett med 5000 perler?", ago: 100 * MIN, read: true },
      {
        from: "ola",
        text: "Hei! Det kan være aktuelt, datteren min elsker perler. Send gjerne et bytteforslag.",
        ago: 92 * MIN,
        read: true,
      },
      { from: "kari", text: "Supert, jeg sender et forslag nå!", ago: 86 * MIN, read: false },
    ],
  },
  {
    listing: "L1",
    buyer: "ingrid",
    messages: [
      { from: "ingrid", text: "Hei! Er hestestallen komplett med hestene?", ago: 2 * DAY + 2 * HOUR, read: true },
      { from: "lars", text: "Hei! Ja, alle delene og begge hestene er med. Instruksjonsboka også.", ago: 2 * DAY + 1 * HOUR, read: true },
      { from: "ingrid", text: "Supert, jeg tar den! Kan du holde den av til lørdag?", ago: 2 * DAY + 50 * MIN, read: true },
      { from: "lars", text: "Det går fint, jeg markerer den som reservert.", ago: 2 * DAY + 30 * MIN, read: true },
    ],
  },
  {
    listing: "N2",
    buyer: "anders",
    messages: [
      { from: "anders", text: "Hei! Er fargestiftene fortsatt ledige? Jeg kan hente i kveld.", ago: 3 * HOUR, read: true },
      { from: "nora", text: "Hei! Ja, de er dine om du vil. Passer det etter kl. 18?", ago: 2 * HOUR + 40 * MIN, read: false },
    ],
  },
];

/** A pending trade: Kari offers her pegboard (K2) for Ola's Duplo boat (O1), in their conversation. */
export const TRADE_OFFER = {
  listing: "O1", // the conversation's listing and the requested listing
  from: "kari" as AccountKey,
  offered: "K2",
  requested: "O1",
  message: "Perlebrett med 5000 perler i mange farger mot Duplo-båten?",
  ago: 85 * MIN,
  validDays: 7,
};

/**
 * Completed deals with reviews (decision 070). A sale: `listing` sold by its owner to
 * `other`. A trade: `other` offered `offered` for `listing` and both confirmed the handover.
 * `completed` is minutes ago; a review's reviewee is the deal's other party.
 */
export interface DemoDeal {
  kind: "sale" | "trade";
  listing: string;
  other: AccountKey;
  offered?: string;
  /** A trade: when the accepted offer was sent (minutes ago; default two days before `completed`). */
  proposed?: number;
  /** A trade: earlier offers in the same conversation that the owner turned down. */
  rejected?: { offered: string; proposed: number; answered: number; message: string | null }[];
  completed: number;
  messages: DemoMessage[];
  reviews: { from: AccountKey; rating: 1 | 2 | 3 | 4 | 5; text: string | null; ago: number }[];
}

export const DEMO_DEALS: DemoDeal[] = [
  {
    kind: "sale",
    listing: "I2",
    other: "kari",
    completed: 40 * DAY,
    messages: [
      { from: "kari", text: "Hei! Da er skøytene betalt. Kan jeg hente dem i morgen ettermiddag?", ago: 40 * DAY - 10 * MIN, read: true },
      { from: "ingrid", text: "Supert, det passer fint. Jeg er hjemme etter kl. 16.", ago: 40 * DAY - 30 * MIN, read: true },
    ],
    reviews: [
      {
        from: "kari",
        rating: 5,
        text: "Skøytene var akkurat som beskrevet, og Ingrid var hyggelig og fleksibel med hentingen.",
        ago: 39 * DAY,
      },
      { from: "ingrid", rating: 5, text: "Betalte med en gang og kom som avtalt. Anbefales!", ago: 38 * DAY },
    ],
  },
  {
    kind: "trade",
    listing: "O7",
    other: "kari",
    offered: "K8",
    completed: 20 * DAY,
    messages: [
      { from: "kari", text: "Byttet er bekreftet her. Takk, dyrehagen er allerede i full bruk!", ago: 20 * DAY - 5 * MIN, read: true },
      { from: "ola", text: "Så bra! Togbanen er en stor hit her også 🚂", ago: 20 * DAY - 20 * MIN, read: true },
    ],
    reviews: [
      { from: "ola", rating: 4, text: "Fint bytte. Togbanen var litt mer brukt enn bildene viste, men alt fungerer.", ago: 19 * DAY },
      { from: "kari", rating: 5, text: "Rask å svare og godt pakket. Gjerne flere bytter!", ago: 19 * DAY },
    ],
  },
  {
    kind: "sale",
    listing: "L6",
    other: "ola",
    completed: 2 * DAY,
    messages: [{ from: "ola", text: "Takk! Sparkesykkelen kom fram i dag, sønnen min er i himmelen.", ago: 1 * DAY, read: false }],
    // Only Ola has written: hidden until Lars writes his or the 14 days are over (the prompt shows
    // for Lars in the chat).
    reviews: [{ from: "ola", rating: 5, text: "Rask sending og akkurat som beskrevet.", ago: 20 * HOUR }],
  },
  {
    // The chat after a whole trade: a refused offer, the completed one, the notices and
    // the review prompt still open for both, over three days.
    kind: "trade",
    listing: "K7",
    other: "ola",
    offered: "O8",
    rejected: [{ offered: "O5", proposed: 2 * DAY + 23 * HOUR, answered: 2 * DAY + 21 * HOUR, message: "Walkie-talkiene mot bøkene?" }],
    proposed: 2 * DAY + 20 * HOUR,
    completed: 25 * HOUR,
    messages: [
      { from: "ola", text: "Hei! Er dinosaurbøkene fortsatt ledige? Sønnen min på seks er helt dinosaurgal 🦕", ago: 3 * DAY, read: true },
      { from: "kari", text: "Hei! Ja, de er ledige. Jeg bytter gjerne, helst mot et puslespill.", ago: 3 * DAY - 20, read: true },
      {
        from: "system",
        text: TRADE_CHAT_TEXTS.created("Walkie-talkie-sett, 2 stk", "Bøker om dinosaurer (6 stk)"),
        ago: 2 * DAY + 23 * HOUR,
        read: true,
      },
      { from: "system", text: TRADE_CHAT_TEXTS.rejected, ago: 2 * DAY + 21 * HOUR, read: true },
      { from: "kari", text: "Takk, men vi har walkie-talkier fra før. Har du et puslespill?", ago: 2 * DAY + 21 * HOUR - 1, read: true },
      {
        from: "ola",
        text: "Ja! Et gulvpuslespill med dinosaurer, 48 store brikker. Jeg sender et nytt forslag.",
        ago: 2 * DAY + 20 * HOUR + 5,
        read: true,
      },
      {
        from: "system",
        text: TRADE_CHAT_TEXTS.created("Gulvpuslespill med dinosaurer, 48 brikker", "Bøker om dinosaurer (6 stk)"),
        ago: 2 * DAY + 20 * HOUR,
        read: true,
      },
      { from: "system", text: TRADE_CHAT_TEXTS.accepted, ago: 2 * DAY + 19 * HOUR, read: true },
      {
        from: "kari",
        text: "Perfekt, det tar vi! Jeg er i Bergen på torsdag og kan ta med bøkene.",
        ago: 2 * DAY + 19 * HOUR - 2,
        read: true,
      },
      { from: "ola", text: "Så fint. Skal vi si Festplassen kl. 17?", ago: 2 * DAY + 18 * HOUR, read: true },
      { from: "kari", text: "Avtale! Jeg har på meg en gul regnjakke.", ago: 2 * DAY + 17 * HOUR, read: true },
      { from: "ola", text: "Takk for i dag! Han har allerede lest den store klaffeboka to ganger.", ago: 25 * HOUR + 10, read: true },
      { from: "system", text: TRADE_CHAT_TEXTS.completed, ago: 25 * HOUR, read: true },
      { from: "kari", text: "Så koselig! Puslespillet ble lagt tre ganger i går kveld 😄", ago: 24 * HOUR, read: true },
      { from: "ola", text: "Ha en fin helg, og takk for et fint bytte!", ago: 40 * MIN, read: false },
    ],
    // None written yet: both see "Gi vurdering" in the chat.
    reviews: [],
  },
];

export const FAVOURITES: { user: AccountKey; listing: string; ago: number }[] = [
  { user: "kari", listing: "I1", ago: 20 * HOUR },
  { user: "kari", listing: "E1", ago: 2 * DAY },
  { user: "ola", listing: "K1", ago: 85 * MIN },
  { user: "ingrid", listing: "S1", ago: 6 * HOUR },
  { user: "sofie", listing: "N1", ago: 20 * MIN },
];

/** One resolved case (the hidden listing) and one pending report for the moderation dashboard. */
export const REPORTS = [
  {
    reporter: "lars" as AccountKey,
    listing: "E3",
    reason: "Villedende informasjon",
    description: "Tittelen sier Lego, men beskrivelsen sier at klossene ikke er originale.",
    priority: "normal",
    ago: 2 * DAY,
    resolved: {
      moderator: "marte" as AccountKey,
      action: "hide",
      notes: "Skjult til selger retter tittelen.",
      ago: 1 * DAY,
    },
  },
  {
    reporter: "sofie" as AccountKey,
    listing: "O2",
    reason: "Falsk annonse",
    description: "Bildet ser ikke ut som en bil med firehjulstrekk.",
    priority: "low",
    ago: 5 * HOUR,
    resolved: null,
  },
];

/** Minutes → milliseconds. */
export const minutes = (m: number): number => m * 60_000;
