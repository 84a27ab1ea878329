import { useQuery } from "@tanstack/react-query";
import { ArrowLeftRight, PackageOpen, SearchX } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useNavigate, useParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { formatPrice } from "../../../domain/format";
import { TRADE_CHOOSE_LISTING_TEXT } from "../../../domain/schemas/trades";
import { TRADE_MESSAGE_MAX_LENGTH } from "../../../domain/trades";
import { isApiError } from "../../api/client";
import { sendTradeOffer, tradeProposalQuery, type TradeProposalBody } from "../../api/trades";
import { Button, buttonClasses } from "../../components/ui/Button";
import { PageSpinner } from "../../components/ui/Spinner";
import { cn } from "../../lib/cn";
import { PLACEHOLDER_IMAGE, firstImageUrl } from "../../lib/images";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { FallbackScreen } from "../fallback/FallbackScreen";
import { TradeListingRow } from "./TradeParts";

/** /trade-offer/{listingId} "Foreslå bytte" (docs/product.md "Trades", "Validation", "Error messages"); login required by the router. */
export function TradeOfferPage() {
  const { listingId = "" } = useParams();
  const navigate = useNavigate();
  useDocumentTitle("Foreslå bytte");
  const proposal = useQuery(tradeProposalQuery(listingId));
  const status = isApiError(proposal.error) ? proposal.error.status : null;
  const known = status === 404 || status === 400 || status === 403 || status === 409;

  useEffect(() => {
    if (proposal.error && !known) {
      toastError("Feil", "Kunne ikke hente annonse", { id: "trade-listing", error: proposal.error });
      navigate("/", { replace: true });
    }
  }, [proposal.error, known, navigate]);

  if (status === 404 || status === 400) {
    return (
      <FallbackScreen
        icon={<SearchX className="size-8" />}
        title="Annonse ikke funnet"
        text="Annonsen finnes ikke, eller den er ikke lenger tilgjengelig for bytte."
      >
        <Link to="/" className={buttonClasses()}>
          Tilbake til forsiden
        </Link>
      </FallbackScreen>
    );
  }
  if (status === 403 || status === 409) {
    return (
      <FallbackScreen
        icon={<ArrowLeftRight className="size-8" />}
        title={status === 403 ? "Dette er din annonse" : "Ikke åpen for bytte"}
        text={proposal.error?.message ?? ""}
      >
        <Link to="/" className={buttonClasses()}>
          Tilbake til forsiden
        </Link>
      </FallbackScreen>
    );
  }
  if (!proposal.data) return <PageSpinner label="Laster annonse..." />;
  return <ProposalForm proposal={proposal.data} />;
}

function ProposalForm({ proposal }: { proposal: TradeProposalBody }) {
  const navigate = useNavigate();
  const messageId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const [sending, setSending] = useState(false);
  const wanted = proposal.listing;
  const choosable = proposal.own_listings;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || sending) return;
    setSending(true);
    try {
      const trimmed = message.trim();
      const { conversation_id } = await sendTradeOffer({
        requested_listing_id: wanted.id,
        offered_listing_id: chosen,
        message: trimmed || null,
      });
      toastSuccess("Bytteforslag sendt!", "Selger vil få beskjed om ditt forslag");
      navigate(`/chat/${conversation_id}`);
    } catch (error) {
      const reason = isApiError(error) && (error.status === 409 || error.status === 400) ? ` ${error.message}` : "";
      toastError("Feil", `Kunne ikke sende bytteforslag.${reason}`, { error });
      setSending(false);
    }
  };

  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Foreslå bytte</h1>
      <section aria-labelledby="wanted-heading" className="mt-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
        <h2 id="wanted-heading" className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
          Du vil ha denne
        </h2>
        <TradeListingRow label={`Fra ${wanted.owner_name}`} listing={wanted} className="mt-2" />
      </section>

      {choosable.length === 0 ? (
        <section className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white p-8 text-center">
          <PackageOpen aria-hidden="true" className="size-8 text-stone-500" />
          <h2 className="mt-3 text-lg font-bold text-stone-900">Ingen annonser å bytte med</h2>
          <p className="mt-1 text-stone-700">Du må ha aktive annonser for å kunne foreslå bytte</p>
          <Link to="/create-listing" className={buttonClasses("primary", "md", "mt-4")}>
            Legg ut annonse
          </Link>
        </section>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="mt-6 space-y-6">
          <fieldset>
            <legend className="text-lg font-bold text-stone-900">{TRADE_CHOOSE_LISTING_TEXT}</legend>
            <ul className="mt-3 space-y-2">
              {choosable.map((listing) => {
                const selected = chosen === listing.id;
                return (
                  <li key={listing.id}>
                    <label
                      className={cn(
                        "flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border bg-white p-3 shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600",
                        selected ? "border-brand-600 ring-1 ring-brand-600" : "border-stone-200",
                        listing.already_offered && "cursor-not-allowed opacity-70",
                      )}
                    >
                      <input
                        type="radio"
                        name="offered_listing_id"
                        value={listing.id}
                        checked={selected}
                        disabled={listing.already_offered || sending}
                        onChange={() => setChosen(listing.id)}
                        className="size-5 shrink-0 accent-brand-700"
                      />
                      <img
                        src={firstImageUrl(listing.images) ?? PLACEHOLDER_IMAGE}
                        alt=""
                        width={56}
                        height={56}
                        className="size-14 shrink-0 rounded-lg bg-stone-100 object-cover"
                      />
                      <span className="min-w-0 text-sm">
                        <span className="line-clamp-2 font-semibold text-stone-900">{listing.title}</span>
                        <span className="block text-stone-700">{formatPrice(listing.price, listing.is_free)}</span>
                        {listing.already_offered ? <span className="block text-stone-700">Allerede tilbudt for denne annonsen</span> : null}
                      </span>
                    </label>
                  </li>
                );
              })}
            </ul>
          </fieldset>
          <div>
            <label htmlFor={messageId} className="block font-semibold text-stone-900">
              Melding (valgfritt)
            </label>
            <textarea
              id={messageId}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              placeholder="Skriv en melding til selger..."
              maxLength={TRADE_MESSAGE_MAX_LENGTH}
              rows={4}
              disabled={sending}
              className="mt-1 w-full rounded-xl border border-stone-500 bg-white px-3 py-2 text-base text-stone-900 placeholder:text-stone-500 focus-visible:border-brand-700"
            />
          </div>
          <Button
            type="submit"
            size="lg"
            className="w-full"
            disabled={!chosen || sending}
            aria-busy={sending || undefined}
            data-analytics="trade_offer_send"
            data-analytics-listing={wanted.id}
          >
            <ArrowLeftRight aria-hidden="true" className="size-5" />
            {sending ? "Sender..." : "Send bytteforslag"}
          </Button>
        </form>
      )}
    </div>
  );
}
