import { Link } from "../../components/Link";
import { ContactDetails, Prose, StaticPage } from "./StaticPage";

/** /om-oss: what Lekebytte is, why it exists and how it works (docs/product.md "Static pages"). */
export function AboutPage() {
  return (
    <StaticPage
      title="Om oss"
      lead={
        <p>
          Lekebytte er en markedsplass der foreldre kjøper, selger, gir bort og bytter brukte leker og barneutstyr – med familier i
          nærheten.
        </p>
      }
    >
      <Prose>
        <h2>Hva er Lekebytte?</h2>
        <p>
          Barn vokser fort, og det gjør lekekassa også. Lego det ikke bygges med lenger, babygymmen som ble for liten, sykkelen som er
          byttet ut med en større: Hos oss får tingene et nytt hjem i stedet for å bli stående i boden.
        </p>
        <p>Her kan du</p>
        <ul>
          <li>
            <strong>selge</strong> leker og barneutstyr du ikke trenger lenger,
          </li>
          <li>
            <strong>gi bort</strong> det du heller vil skal komme til nytte enn å selge,
          </li>
          <li>
            <strong>bytte</strong> en leke mot en annen, uten at penger er involvert,
          </li>
          <li>
            <strong>finne</strong> rimelige, brukte leker i nærheten av der du bor.
          </li>
        </ul>

        <h2>Hvorfor vi finnes</h2>
        <h3>Gjenbruk</h3>
        <p>
          Leker er ofte laget for å vare i mange år, men brukes bare i noen få. Når de går videre til en ny familie, sparer dere penger, og
          det trengs færre nye leker. Det er bra for både lommeboka og miljøet.
        </p>
        <h3>Trygghet</h3>
        <p>
          Du trenger en konto for å legge ut annonser og sende meldinger, og all kontakt skjer i meldingene her på Lekebytte – du trenger
          ikke dele telefonnummeret ditt. Annonser og meldinger som bryter med reglene kan rapporteres, og moderatorene våre følger opp. Vil
          du betale med en gang, kan du bruke kort eller Vipps.
        </p>
        <h3>Lokalt</h3>
        <p>
          Hver annonse har et postnummer, så du kan søke etter leker i nærheten. Det gjør det enkelt å hente selv, møte selgeren og se leken
          før du tar den med hjem.
        </p>

        <h2>Slik fungerer det</h2>
        <ol>
          <li>
            <strong>Opprett en konto</strong> med e-postadressen din. Det er gratis.
          </li>
          <li>
            <strong>Legg ut en leke</strong> med bilder, en kort beskrivelse, kategori, alder og tilstand. Velg om du vil selge den, gi den
            bort, eller om du er åpen for bytte.
          </li>
          <li>
            <strong>Finn det du leter etter</strong> i <Link to="/search">søket</Link>: filtrer på kategori, alder, tilstand, pris og
            postnummer.
          </li>
          <li>
            <strong>Ta kontakt</strong> med selgeren i en melding, eller foreslå et bytte med en av dine egne annonser.
          </li>
          <li>
            <strong>Avtal overleveringen</strong> – eller betal trygt med kort eller Vipps der selgeren tilbyr det.
          </li>
        </ol>

        <h2>Tips for en trygg handel</h2>
        <ul>
          <li>Se etter CE-merking, og sjekk at leker for barn under 3 år ikke har løse smådeler.</li>
          <li>Spør etter flere bilder eller mer informasjon hvis noe er uklart.</li>
          <li>Møt gjerne på et offentlig sted, og se på leken før du betaler kontant.</li>
          <li>Er noe mistenkelig, rapporter annonsen, så ser vi på den.</li>
        </ul>

        <h2>Kontakt oss</h2>
        <p>
          Vi vil gjerne høre fra deg, enten du har spørsmål, tilbakemeldinger eller ideer. Bruk <Link to="/kontakt">kontaktskjemaet</Link>,
          eller ta kontakt direkte:
        </p>
        <ContactDetails className="mt-4" />
      </Prose>
    </StaticPage>
  );
}
