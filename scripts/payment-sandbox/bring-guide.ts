// Bring's Shipping Guide (POST /shippingguide/v2/products) as the sandbox plays it: the price and
// the working days for each C2C service and size asked for. The sandbox's prices are decision 145's
// placeholders (domain/carriers.ts), so what the client reads matches the checkout's table until an
// agreement gives Bring's own.
import { type ParcelSize, SHIPPING_OFFERS } from "../../domain/carriers";
import { json, type Reply } from "./http";

const SIZE_BY_VAS: Record<string, ParcelSize> = { "2528": "small", "2529": "medium", "1377": "large" };

interface GuideProduct {
  id?: unknown;
  additionalServices?: Array<{ id?: unknown }>;
}

/** The answer for one request: per consignment, per product, a price and a lead time or an error. */
export function shippingGuide(body: string): Reply {
  let request: { consignments?: Array<{ id?: unknown; fromPostalCode?: unknown; toPostalCode?: unknown; products?: GuideProduct[] }> };
  try {
    request = JSON.parse(body);
  } catch {
    return json(400, { errors: [{ code: "GUIDE-INPUT-001", description: "The request body is not valid JSON." }] });
  }
  if (!Array.isArray(request?.consignments) || request.consignments.length === 0)
    return json(400, { errors: [{ code: "GUIDE-INPUT-002", description: "At least one consignment is required." }] });
  for (const c of request.consignments)
    if (!/^\d{4}$/.test(String(c.fromPostalCode)) || !/^\d{4}$/.test(String(c.toPostalCode)))
      return json(400, {
        errors: [{ code: "GUIDE-INPUT-003", description: "fromPostalCode and toPostalCode must be Norwegian postal codes." }],
      });
  return json(200, {
    consignments: request.consignments.map((c) => ({
      id: c.id ?? null,
      products: (c.products ?? []).map((p) => product(p)),
    })),
  });
}

function product(p: GuideProduct) {
  const id = String(p.id ?? "");
  const offer = Object.values(SHIPPING_OFFERS.bring).find((o) => o?.service === id);
  const sizes = (p.additionalServices ?? []).map((s) => SIZE_BY_VAS[String(s?.id)]).filter(Boolean);
  const ore = offer && sizes.length === 1 ? offer.prices[sizes[0]] : undefined;
  if (!offer || ore === undefined)
    return { id, errors: [{ code: "PRODUCT_NOT_AVAILABLE", description: `Product ${id} is not available for this size.` }] };
  const withVat = ore / 100;
  const delivery = new Date(Date.now() + offer.leadDays.max * 24 * 3600 * 1000);
  return {
    id,
    price: {
      listPrice: {
        currencyCode: "NOK",
        priceWithAdditionalServices: {
          amountWithoutVAT: (withVat / 1.25).toFixed(2),
          vat: (withVat - withVat / 1.25).toFixed(2),
          amountWithVAT: withVat.toFixed(2),
        },
      },
    },
    expectedDelivery: {
      workingDays: String(offer.leadDays.max),
      formattedExpectedDeliveryDate: delivery.toISOString().slice(0, 10).split("-").reverse().join("."),
    },
  };
}
