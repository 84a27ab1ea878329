import useEmblaCarousel from "embla-carousel-react";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useCallback, useEffect, useState, type KeyboardEvent } from "react";
import { listingImageUrl, PLACEHOLDER_IMAGE } from "../../lib/images";

export interface ImageCarouselProps {
  images: readonly string[];
  title: string;
}

const arrowClasses =
  "absolute top-1/2 z-10 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/95 text-stone-900 shadow-md hover:bg-white disabled:opacity-40";

/** Photos with previous/next buttons and the counter "n / total"; the stock picture when there are none. */
export function ImageCarousel({ images, title }: ImageCarouselProps) {
  const [emblaRef, emblaApi] = useEmblaCarousel({ loop: false });
  const [index, setIndex] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<number>>(new Set());
  const total = images.length;

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setIndex(emblaApi.selectedScrollSnap());
    onSelect();
    emblaApi.on("select", onSelect).on("reInit", onSelect);
    return () => {
      emblaApi.off("select", onSelect).off("reInit", onSelect);
    };
  }, [emblaApi]);

  const previous = useCallback(() => emblaApi?.scrollPrev(), [emblaApi]);
  const next = useCallback(() => emblaApi?.scrollNext(), [emblaApi]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowLeft") previous();
    if (event.key === "ArrowRight") next();
  };

  if (total === 0) {
    return (
      <div className="aspect-[4/3] overflow-hidden bg-stone-100 sm:rounded-2xl">
        <img src={PLACEHOLDER_IMAGE} alt="" className="size-full object-cover" />
      </div>
    );
  }

  return (
    <section
      aria-roledescription="karusell"
      aria-label="Bilder"
      onKeyDown={onKeyDown}
      className="relative overflow-hidden bg-stone-100 sm:rounded-2xl"
    >
      <div ref={emblaRef} className="overflow-hidden">
        <div className="flex touch-pan-y">
          {images.map((key, i) => (
            <div
              key={key}
              role="group"
              aria-roledescription="bilde"
              aria-label={`${i + 1} av ${total}`}
              aria-hidden={i !== index ? true : undefined}
              className="aspect-[4/3] min-w-0 shrink-0 grow-0 basis-full"
            >
              <img
                src={failed.has(i) ? PLACEHOLDER_IMAGE : listingImageUrl(key)}
                alt={total > 1 ? `${title}, bilde ${i + 1} av ${total}` : title}
                loading={i === 0 ? "eager" : "lazy"}
                fetchPriority={i === 0 ? "high" : undefined}
                decoding="async"
                onError={() => setFailed((s) => new Set(s).add(i))}
                className="size-full object-contain"
              />
            </div>
          ))}
        </div>
      </div>
      {total > 1 ? (
        <>
          <button type="button" onClick={previous} disabled={index === 0} aria-label="Forrige bilde" className={`${arrowClasses} left-2`}>
            <ChevronLeft aria-hidden="true" className="size-6" />
          </button>
          <button
            type="button"
            onClick={next}
            disabled={index === total - 1}
            aria-label="Neste bilde"
            className={`${arrowClasses} right-2`}
          >
            <ChevronRight aria-hidden="true" className="size-6" />
          </button>
          {/* Product text: "n / total". */}
          <p
            aria-live="polite"
            className="absolute right-2 bottom-2 rounded-full bg-stone-900/80 px-2.5 py-1 text-sm font-semibold text-white"
          >
            <span className="sr-only">Bilde </span>
            {index + 1} / {total}
          </p>
        </>
      ) : null}
    </section>
  );
}
