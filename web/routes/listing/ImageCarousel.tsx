import type { EmblaCarouselType } from "embla-carousel";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { screenPhoto, type PhotoSources } from "../../../domain/photos";
import { PLACEHOLDER_IMAGE } from "../../lib/images";

export interface ImageCarouselProps {
  images: readonly string[];
  title: string;
}

const arrowClasses =
  "absolute top-1/2 z-10 inline-flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-white/95 text-stone-900 shadow-md hover:bg-white disabled:opacity-40";

const loadEmbla = () => import("embla-carousel").then((m) => m.default);

/** A horizontal move this long between press and release, before embla runs, is a swipe. */
const SWIPE_PX = 40;

/**
 * The carousel's engine (embla, about 8 KB gzipped) starts on the first sign of use, not with the
 * page (decision 102): a pointer over the photos, a touch, focus inside. The markup is the same
 * without it (the first photo fills the frame, as the edge renders it), so nothing moves when it
 * attaches. A press of an arrow or a swipe made before it is there is carried out once it is.
 */
function useDeferredEmbla(enabled: boolean) {
  const viewport = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState(false);
  const [api, setApi] = useState<EmblaCarouselType>();
  const queued = useRef<"previous" | "next" | null>(null);
  const swipeFrom = useRef<number | null>(null);

  useEffect(() => {
    if (!enabled || !wanted) return;
    let cancelled = false;
    let created: EmblaCarouselType | undefined;
    loadEmbla().then(
      (Embla) => {
        if (cancelled || !viewport.current) return;
        created = Embla(viewport.current, { loop: false });
        if (queued.current === "previous") created.scrollPrev();
        if (queued.current === "next") created.scrollNext();
        queued.current = null;
        setApi(created);
      },
      // Offline for a moment: the next touch tries again.
      () => setWanted(false),
    );
    return () => {
      cancelled = true;
      created?.destroy();
    };
  }, [enabled, wanted]);

  const wake = () => setWanted(true);
  const go = (direction: "previous" | "next") => {
    if (api) {
      if (direction === "previous") api.scrollPrev();
      else api.scrollNext();
      return;
    }
    queued.current = direction;
    wake();
  };
  const handlers = {
    onPointerEnter: wake,
    onFocus: wake,
    onPointerDown: (event: PointerEvent) => {
      wake();
      swipeFrom.current = api ? null : event.clientX;
    },
    onPointerUp: (event: PointerEvent) => {
      const from = swipeFrom.current;
      swipeFrom.current = null;
      if (from === null || api) return;
      const moved = event.clientX - from;
      if (Math.abs(moved) >= SWIPE_PX) go(moved < 0 ? "next" : "previous");
    },
  };
  return { viewport, api, go, handlers };
}

/**
 * One photo of the carousel: the screen's copy (decision 123), the width chosen by the browser from
 * the page's layout and the screen's density, the same choice the page's preload made for the first.
 */
function CarouselPhoto({ photo, alt, first, onError }: { photo: PhotoSources | null; alt: string; first: boolean; onError: () => void }) {
  return (
    // loading, srcset and sizes before src: a browser that sets src first may start on a copy it then drops.
    <img
      loading={first ? "eager" : "lazy"}
      srcSet={photo?.srcSet}
      sizes={photo?.sizes}
      src={photo?.src ?? PLACEHOLDER_IMAGE}
      alt={alt}
      fetchPriority={first ? "high" : undefined}
      decoding="async"
      onError={photo ? onError : undefined}
      className="size-full object-contain"
    />
  );
}

/** Photos with previous/next buttons and the counter "n / total"; the stock picture when there are none. */
export function ImageCarousel({ images, title }: ImageCarouselProps) {
  const total = images.length;
  const { viewport, api: emblaApi, go, handlers } = useDeferredEmbla(total > 1);
  const [index, setIndex] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<number>>(new Set());

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setIndex(emblaApi.selectedScrollSnap());
    onSelect();
    emblaApi.on("select", onSelect).on("reInit", onSelect);
    return () => {
      emblaApi.off("select", onSelect).off("reInit", onSelect);
    };
  }, [emblaApi]);

  const previous = () => go("previous");
  const next = () => go("next");
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
      {...handlers}
      className="relative overflow-hidden bg-stone-100 sm:rounded-2xl"
    >
      <div ref={viewport} className="overflow-hidden">
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
              <CarouselPhoto
                photo={failed.has(i) ? null : screenPhoto(key)}
                alt={total > 1 ? `${title}, bilde ${i + 1} av ${total}` : title}
                first={i === 0}
                onError={() => setFailed((s) => new Set(s).add(i))}
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
