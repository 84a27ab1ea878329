import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { Link } from "../../components/Link";
import { ConsentSettings } from "../../analytics/ConsentSettings";
import { ContactDetails, Prose, StaticPage } from "./StaticPage";

/*
 * What this says must match what the product stores (worker/db/schema.ts), the session and D1
 * bookmark cookies (worker/lib/cookies.ts, docs/decisions/110), the rate limits
 * (docs/decisions/010), account deletion (docs/decisions/011) and analytics (docs/decisions/036,
 * 037). Change the text when one of those changes.
 */

const SECTIONS = [
  { id: "opplysninger", title: "Hvilke opplysninger vi lagrer" },
  { id: "bruk", title: "Hva vi bruker opplysningene til" },
  { id: "lagringstid", title: "Hvor lenge vi lagrer opplysningene" },
  { id: "informasjonskapsler", title: "Informasjonskapsler" },
  { id: "sikkerhet", title: "Sikkerhet" },
  { id: "rettigheter", title: "Dine rettigheter" },
  { id: "tredjeparter", title: "Tredjeparter" },
  { id: "vilkar", title: "Vilkår for bruk" },
  { id: "kontakt", title: "Kontakt" },
] as const;

type SectionId = (typeof SECTIONS)[number]["id"];
const titleOf = (id: SectionId) => SECTIONS.find((s) => s.id === id)!.title;

function Heading({ id }: { id: SectionId }) {
  return <h2 id={id}>{titleOf(id)}</h2>;
}

const COOKIES = [
  {
    name: "lb_access",
    purpose: "Holder deg innlogget mens du bruker siden.",
    duration: "15 minutter (fornyes automatisk mens du er innlogget)",
  },
  {
    name: "lb_refresh",
    purpose: "Fornyer innloggingen uten at du må logge inn på nytt. Sendes bare til innloggingstjenesten vår.",
    duration: "30 dager, eller til du logger ut",
  },
  {
    name: "lb_d1",
    purpose:
      "Sørger for at du ser dine egne endringer med en gang etter at du har lagret noe. Den inneholder bare et punkt i databasens historikk, ingen opplysninger om deg.",
    duration: "5 minutter (fornyes mens du bruker siden)",
  },
];

/** /personvern: privacy policy, cookies (#informasjonskapsler) and terms of use (#vilkar). */
export function PrivacyPage() {
  const { hash } = useLocation();
  // The footer links to #vilkar and #informasjonskapsler; the page's code may arrive after the
  // browser has looked for the anchor.
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);

  return (
    <StaticPage
      title="Personvern"
      lead={
        <p>
          Her forklarer vi hvilke opplysninger Lekebytte lagrer om deg, hva vi bruker dem til, og hvilke rettigheter du har. Nederst finner
          du vilkårene for å bruke tjenesten.
        </p>
      }
    >
      <nav aria-labelledby="privacy-toc" className="mt-8 rounded-2xl border border-stone-200 bg-white p-5">
        <h2 id="privacy-toc" className="text-lg font-bold text-stone-900">
          Innhold
        </h2>
        <ol className="mt-3 list-decimal space-y-2 pl-6">
          {SECTIONS.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} className="font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <Prose>
        <p className="!mt-8">
          Lekebytte er behandlingsansvarlig for personopplysningene som behandles i tjenesten. Vi samler ikke inn mer enn vi trenger, vi
          selger ikke opplysninger, og vi viser ikke reklame.
        </p>

        <Heading id="opplysninger" />
        <p>Dette er alt vi lagrer, og hvorfor:</p>
        <ul>
          <li>
            <strong>Konto:</strong> e-postadressen din og passordet ditt. Passordet lagres bare som en hash (scrypt), aldri i klartekst, så
            heller ikke vi kan lese det. Vi lagrer også når du bekreftet e-postadressen.
          </li>
          <li>
            <strong>Profil:</strong> navnet du vil vises med, postnummeret ditt hvis du oppgir det, og når du ble medlem. Gateadressen din,
            hvis du oppgir den, brukes bare som avsenderadresse når du sender en pakke, og vises ikke for andre brukere.
          </li>
          <li>
            <strong>Annonser:</strong> tittel, beskrivelse, kategori, alder, tilstand, pris, postnummer og bildene du laster opp. Bildene
            lagres i Cloudflare R2.
          </li>
          <li>
            <strong>Favoritter:</strong> annonsene du har lagret som favoritter.
          </li>
          <li>
            <strong>Meldinger og bytter:</strong> meldingene du sender og mottar, bytteforslag og gjennomførte bytter.
          </li>
          <li>
            <strong>Betalinger:</strong> hvem som kjøpte hva, beløp, tidspunkt og betalingsleverandørens referanse. Kortnummer og andre
            betalingsopplysninger håndteres av Stripe eller Vipps og lagres aldri hos oss.
          </li>
          <li>
            <strong>Rapporter:</strong> rapporter du sender om annonser, meldinger eller brukere, og hvordan moderatorene behandlet dem.
          </li>
          <li>
            <strong>Nyhetsbrev:</strong> e-postadressen din, navnet ditt hvis du oppgir det, og hvilken side du meldte deg på fra.
          </li>
          <li>
            <strong>Kontaktskjema:</strong> navn, e-postadresse, emne og melding du sender oss.
          </li>
          <li>
            <strong>Innlogginger:</strong> for hver innlogging lagrer vi når den startet og utløper, og nettleserens brukeragent (navn og
            versjon på nettleser og operativsystem), slik at innloggingen kan kjennes igjen og avsluttes.
          </li>
          <li>
            <strong>Beskyttelse mot misbruk:</strong> tellere for antall forsøk per IP-adresse og per e-postadresse ved innlogging,
            registrering, nyhetsbrev og kontaktskjema, og per IP-adresse for statistikk. Tellerne slettes etter høyst ett døgn.
          </li>
          <li>
            <strong>Statistikk, bare hvis du godtar analyse:</strong> sidevisninger, hvilke annonser som blir sett, hvor lenge og hvor langt
            ned du blar, søk med filtre, og klikk på «Send melding» og «Foreslå bytte», med enhetstype, nettleser, operativsystem og hvilken
            side du kom fra. Statistikken knyttes ikke til kontoen din eller IP-adressen din, og brukes bare samlet – en selger ser hvor
            mange som har sett annonsen per dag, aldri hvem. Derfor er den heller ikke med i «Last ned mine data».
          </li>
        </ul>

        <Heading id="bruk" />
        <ul>
          <li>
            <strong>For å levere tjenesten</strong> (avtale): vise annonsene dine, formidle meldinger og bytteforslag, og gjennomføre
            betalinger.
          </li>
          <li>
            <strong>For sikkerhet og mot misbruk</strong> (berettiget interesse): holde deg innlogget, begrense gjentatte forsøk og la
            moderatorene følge opp rapporter.
          </li>
          <li>
            <strong>For å svare deg</strong> når du kontakter oss.
          </li>
          <li>
            <strong>For å sende nyhetsbrevet</strong> (samtykke), bare hvis du har meldt deg på. Du kan melde deg av når du vil.
          </li>
          <li>
            <strong>For å gjøre tjenesten bedre og vise selgere hvor mange som ser annonsene deres</strong> (samtykke), ut fra samlet
            statistikk – bare hvis du har valgt «Godta analyse».
          </li>
        </ul>
        <p>Vi bruker ikke opplysningene dine til reklame, og vi deler dem ikke med annonsører.</p>

        <Heading id="lagringstid" />
        <ul>
          <li>Konto, profil, annonser og favoritter lagres så lenge du har en konto.</li>
          <li>Innlogginger slettes når de utløper, senest etter 30 dager uten bruk.</li>
          <li>Tellerne som beskytter mot misbruk slettes etter høyst ett døgn.</li>
          <li>
            Statistikk lagres som enkelthendelser i 90 dager og slettes deretter. Det som blir igjen, er tall per annonse og dag (visninger,
            unike besøk og snittid), uten noe om hvem.
          </li>
          <li>
            Når du sletter kontoen, slettes innlogginger, favoritter og nyhetsbrevpåmelding, annonsene dine fjernes, profilen tømmes,
            e-postadressen erstattes og bildene dine slettes. Meldinger og bytter du har hatt med andre blir stående for dem, men med
            «Anonym» som avsender.
          </li>
        </ul>

        <Heading id="informasjonskapsler" />
        <p>
          Informasjonskapsler (cookies) er små tekstfiler som lagres i nettleseren din; nettleseren har også annen lagring som fungerer på
          samme måte. Lekebytte bruker bare det som er nødvendig for at tjenesten skal virke, og statistikk bare hvis du sier ja. Du velger
          i meldingen nederst på siden første gang du besøker oss, og du kan endre valget her når som helst.
        </p>
        <ConsentSettings />
        <h3>Nødvendige informasjonskapsler</h3>
        <ul className="!list-none !pl-0">
          {COOKIES.map((cookie) => (
            <li key={cookie.name} className="rounded-xl border border-stone-200 bg-white p-4">
              <p className="!mt-0 font-mono font-semibold text-stone-900">{cookie.name}</p>
              <p className="!mt-1">{cookie.purpose}</p>
              <p className="!mt-1 text-sm text-stone-700">Varighet: {cookie.duration}</p>
            </li>
          ))}
        </ul>
        <p>
          Alle er <strong>HttpOnly</strong>, så de kan ikke leses av skript på siden, og de sendes bare over HTTPS (der heter de{" "}
          <code>__Host-lb_access</code>, <code>__Secure-lb_refresh</code> og <code>__Host-lb_d1</code>). De settes bare når du er logget
          inn: de to første når du logger inn, og de slettes når du logger ut; <code>lb_d1</code> når du har lagret noe, og den forsvinner
          av seg selv etter fem minutter.
        </p>
        <p>
          I tillegg husker nettleseren valget ditt om analyse (<code>lb_consent</code> i lokal lagring), så vi ikke spør hver gang. Det
          ligger der til du endrer valget eller sletter nettleserdataene dine.
        </p>
        <h3>Analytiske informasjonskapsler</h3>
        <p>
          Bare hvis du velger «Godta analyse»: en tilfeldig øktnøkkel (<code>lb_analytics_session</code> i nettleserens øktlagring), slik at
          besøkene dine i én fane henger sammen, og en informasjonskapsel med den samme tilfeldige nøkkelen, signert av oss (
          <code>lb_analytics</code>, over HTTPS <code>__Host-lb_analytics</code>), så ingen kan fylle statistikken med oppdiktede besøk.
          Øktnøkkelen slettes når du lukker fanen, informasjonskapselen senest etter et døgn, og begge med en gang du velger «Bare
          nødvendige». Uten samtykke sender vi ingen statistikk og lagrer ingenting om bruken din.
        </p>
        <h3>Funksjonelle informasjonskapsler</h3>
        <p>
          Vi bruker ingen informasjonskapsler til dette, men nettleseren husker to ting for deg uten å sende dem til oss: hvor langt ned du
          hadde rullet på forsiden og i søket, så «Tilbake» tar deg dit igjen (<code>lekebytte:scroll</code> i øktlagringen, slettes når du
          lukker fanen), og en annonse du har begynt å skrive, så den ikke går tapt (<code>lekebytte:listing-draft:…</code> i lokal lagring,
          slettes når du publiserer eller forkaster utkastet).
        </p>
        <h3>Informasjonskapsler for markedsføring</h3>
        <p>
          Vi bruker ingen informasjonskapsler for markedsføring, og ingen sporingsverktøy, annonsenettverk eller delingsknapper fra
          tredjeparter.
        </p>

        <Heading id="sikkerhet" />
        <ul>
          <li>Passord lagres bare som en hash (scrypt), og innloggingsnøkler lagres bare som hash.</li>
          <li>All trafikk går kryptert over HTTPS.</li>
          <li>Innloggingen ligger i HttpOnly-informasjonskapsler som skript på siden ikke kan lese.</li>
          <li>Gjentatte innloggingsforsøk begrenses, og en stjålet innloggingsnøkkel som brukes to ganger, stenger hele innloggingen.</li>
          <li>Serveren sjekker alltid at du har lov til å se eller endre det du ber om.</li>
        </ul>

        <Heading id="rettigheter" />
        <p>Etter personvernforordningen (GDPR) har du rett til</p>
        <ul>
          <li>
            <strong>innsyn</strong> i opplysningene vi har om deg,
          </li>
          <li>
            <strong>retting</strong> av opplysninger som er feil – navn, postnummer og annonser endrer du selv på{" "}
            <Link to="/profile">Min profil</Link>,
          </li>
          <li>
            <strong>sletting</strong> av opplysningene dine,
          </li>
          <li>
            <strong>dataportabilitet</strong>: å få opplysningene dine i et maskinlesbart format.
          </li>
        </ul>
        <p>
          Du kan gjøre det meste selv på <Link to="/profile">Min profil</Link>: «Last ned mine data» gir deg alt vi har lagret om deg i én
          fil (JSON), og «Slett konto» sletter kontoen din. Du kan også kontakte oss, så hjelper vi deg. Mener du at vi behandler
          opplysningene dine i strid med reglene, kan du klage til{" "}
          <a href="https://www.datatilsynet.no" rel="noopener noreferrer">
            Datatilsynet
          </a>
          .
        </p>

        <Heading id="tredjeparter" />
        <ul>
          <li>
            <strong>Cloudflare</strong> drifter tjenesten for oss: nettsiden, databasen, bildelagringen og utsendingen av e-post.
          </li>
          <li>
            <strong>Stripe</strong> og <strong>Vipps</strong> får opplysninger bare når du betaler med dem, og bare det som trengs for
            betalingen. De behandler betalingen etter sine egne personvernerklæringer.
          </li>
        </ul>
        <p>Vi deler ikke opplysningene dine med andre, med mindre loven krever det.</p>

        <Heading id="vilkar" />
        <p>Ved å bruke Lekebytte godtar du disse vilkårene:</p>
        <ul>
          <li>Du må være minst 18 år for å opprette en konto, og du er ansvarlig for det som skjer med kontoen din.</li>
          <li>
            Annonser skal gjelde leker og barneutstyr du selv eier og har lov til å selge, gi bort eller bytte. Beskriv tilstanden ærlig, og
            bruk egne bilder.
          </li>
          <li>
            Det er ikke lov å legge ut tilbakekalte eller farlige produkter, kopier som gis ut for å være originale, eller innhold som er
            ulovlig, krenkende eller villedende.
          </li>
          <li>Vis respekt i meldinger. Trakassering, spam og hatefulle ytringer er ikke tillatt.</li>
          <li>
            Avtaler om kjøp, salg og bytte inngås mellom brukerne. Lekebytte er ikke part i avtalen, men hjelper gjerne hvis noe går galt.
          </li>
          <li>
            Moderatorene kan skjule eller slette annonser og meldinger som bryter med vilkårene, og advare eller stenge brukere som bryter
            dem gjentatte ganger.
          </li>
        </ul>

        <Heading id="kontakt" />
        <p>
          Har du spørsmål om personvern eller vilkårene, bruk <Link to="/kontakt">kontaktskjemaet</Link> eller ta kontakt direkte:
        </p>
        <ContactDetails className="mt-4" />
      </Prose>
    </StaticPage>
  );
}
