import { zodResolver } from "@hookform/resolvers/zod";
import { Clock } from "lucide-react";
import { useId, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { Link } from "../../components/Link";
import { contactSchema } from "../../../domain/schemas/content";
import { isApiError } from "../../api/client";
import { sendContactMessage } from "../../api/contact";
import { Button } from "../../components/ui/Button";
import { Label } from "../../components/ui/Label";
import { TextField } from "../../components/ui/TextField";
import { cn } from "../../lib/cn";
import { toastError, toastSuccess } from "../../lib/toast";
import { ContactDetails, Prose, StaticPage } from "./StaticPage";

const EMPTY = { name: "", email: "", subject: "", message: "" };
type ContactFields = keyof typeof EMPTY;

const SEND_FAILED = "Kunne ikke sende meldingen. Prøv igjen senere.";

/** /kontakt: the contact form (stored for the team), contact details and a short FAQ. */
export function ContactPage() {
  return (
    <StaticPage
      title="Kontakt oss"
      lead={<p>Har du spørsmål om Lekebytte, en annonse eller kontoen din? Send oss en melding, så hjelper vi deg.</p>}
      className="max-w-5xl"
    >
      <div className="mt-8 grid gap-10 lg:grid-cols-[3fr_2fr]">
        <ContactForm />
        <section aria-labelledby="contact-info-heading">
          <Prose>
            <h2 id="contact-info-heading" className="!mt-0">
              Kontaktinformasjon
            </h2>
            <ContactDetails className="mt-4" />
            <p className="flex items-start gap-3">
              <Clock aria-hidden="true" className="mt-1 size-5 shrink-0 text-brand-700" />
              <span>
                Kundeservice svarer normalt innen 24 timer på hverdager.
                <br />
                Telefontid: hverdager 09:00-16:00.
              </span>
            </p>
          </Prose>
        </section>
      </div>
      <Faq />
    </StaticPage>
  );
}

function ContactForm() {
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(contactSchema), defaultValues: EMPTY });

  const onValid = async (values: Record<ContactFields, string>) => {
    try {
      await sendContactMessage(values);
      toastSuccess("Takk for din henvendelse!", "Vi svarer deg normalt innen 24 timer på hverdager.");
      reset(EMPTY);
    } catch (error) {
      if (isApiError(error) && error.fields) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (field in EMPTY) setError(field as ContactFields, { message }, { shouldFocus: true });
        }
      }
      // A rate limit says how long to wait; everything else gets the text of docs/product.md "Error messages".
      toastError("Noe gikk galt", isApiError(error) && error.status === 429 ? error.message : SEND_FAILED, { error });
    }
  };

  const messageError = errors.message?.message;

  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-2xl font-bold text-stone-900">
        Send oss en melding
      </h2>
      <p className="mt-2 text-stone-700">Alle feltene må fylles ut.</p>
      <form onSubmit={handleSubmit(onValid)} noValidate aria-labelledby={`${id}-heading`} className="mt-5">
        {/* A disabled fieldset disables every field and the button while the message is sent. */}
        <fieldset disabled={isSubmitting} aria-busy={isSubmitting} className="m-0 min-w-0 space-y-4 border-0 p-0">
          <TextField
            label="Navn"
            autoComplete="name"
            maxLength={100}
            aria-required="true"
            error={errors.name?.message}
            {...register("name")}
          />
          <TextField
            label="E-post"
            type="email"
            inputMode="email"
            autoComplete="email"
            maxLength={254}
            aria-required="true"
            error={errors.email?.message}
            {...register("email")}
          />
          <TextField label="Emne" maxLength={200} aria-required="true" error={errors.subject?.message} {...register("subject")} />
          <div>
            <Label htmlFor={`${id}-message`}>Melding</Label>
            <textarea
              id={`${id}-message`}
              rows={6}
              maxLength={5000}
              aria-required="true"
              aria-invalid={messageError ? true : undefined}
              aria-describedby={messageError ? `${id}-message-error` : undefined}
              className={cn(
                "block w-full rounded-xl border border-stone-500 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500",
                "focus-visible:border-brand-700 disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-600 aria-invalid:border-red-700",
              )}
              {...register("message")}
            />
            {messageError ? (
              <p id={`${id}-message-error`} className="mt-1 text-sm font-medium text-red-700">
                {messageError}
              </p>
            ) : null}
          </div>
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            {isSubmitting ? "Sender..." : "Send melding"}
          </Button>
        </fieldset>
      </form>
    </section>
  );
}

const FAQ: { question: string; answer: ReactNode }[] = [
  {
    question: "Hvordan legger jeg ut en leke?",
    answer: (
      <>
        Logg inn og trykk på «Legg ut en leke nå». Du legger inn bilder, tittel og beskrivelse, kategori, alder og tilstand, og til slutt
        pris og postnummer.
      </>
    ),
  },
  {
    question: "Hvordan gir jeg bort en leke?",
    answer: (
      <>Kryss av for «Gi bort» når du legger ut annonsen. Da vises den som gratis, og de som er interessert kan sende deg en melding.</>
    ),
  },
  {
    question: "Hvordan fungerer bytte?",
    answer: (
      <>
        Er en annonse merket «Åpen for bytte», kan du trykke på «Foreslå bytte» og velge en av dine egne annonser å tilby. Selgeren godtar
        eller avslår forslaget, og dere avtaler resten i meldingene.
      </>
    ),
  },
  {
    question: "Hva gjør jeg hvis en annonse virker mistenkelig?",
    answer: <>Åpne annonsen og velg «Rapporter annonse». Moderatorene våre går gjennom alle rapporter.</>,
  },
  {
    question: "Hvordan sletter jeg kontoen min?",
    answer: (
      <>
        Gå til <Link to="/profile">Min profil</Link> og velg «Slett konto». Der kan du også laste ned en kopi av dataene dine med «Last ned
        mine data». Les mer i <Link to="/personvern">personvernerklæringen</Link>.
      </>
    ),
  },
];

function Faq() {
  return (
    <section aria-labelledby="faq-heading" className="mt-12">
      <h2 id="faq-heading" className="text-2xl font-bold text-stone-900">
        Ofte stilte spørsmål
      </h2>
      <div className="mt-4 divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white">
        {FAQ.map(({ question, answer }) => (
          <details key={question} className="group px-4">
            <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 py-3 font-semibold text-stone-900 [&::-webkit-details-marker]:hidden">
              {question}
              <span aria-hidden="true" className="text-xl text-brand-800 transition-transform group-open:rotate-45">
                +
              </span>
            </summary>
            <p className="pb-4 text-stone-800 [&_a]:font-medium [&_a]:text-brand-800 [&_a]:underline">{answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
