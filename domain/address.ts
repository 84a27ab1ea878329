// Client addresses as limits and auto-hide group them (docs/decisions/010-rate-limits.md, 082).
// One household or phone gets a whole IPv6 /64 (2^64 addresses), so anything keyed on the full
// IPv6 address is keyed on nothing; an IPv4 address is shared (NAT) and scarce, so limits keep it
// whole, while auto-hide groups reporters by the /24 around it. Pure: the Worker passes in
// CF-Connecting-IP (or "local"); a value that is no address becomes a bounded key of its own.

type Parsed = { v: 4; octets: number[] } | { v: 6; hextets: number[] };

const MAX_OTHER_LENGTH = 58;

function parseIpv4(s: string): number[] | null {
  const parts = s.split(".");
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    // No leading zeros: "010" is octal to some parsers, and one address must have one spelling.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

function parseHextets(s: string): number[] | null {
  if (s === "") return [];
  const out: number[] = [];
  for (const h of s.split(":")) {
    if (!/^[0-9a-f]{1,4}$/.test(h)) return null;
    out.push(parseInt(h, 16));
  }
  return out;
}

function parseIpv6(s: string): number[] | null {
  let text = s.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  // A dotted IPv4 tail (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) stands for the last two hextets.
  const lastColon = text.lastIndexOf(":");
  if (lastColon >= 0 && text.slice(lastColon + 1).includes(".")) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  if (halves.length === 1) {
    const all = parseHextets(text);
    return all && all.length === 8 ? all : null;
  }
  const head = parseHextets(halves[0]);
  const tail = parseHextets(halves[1]);
  if (!head || !tail || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function parse(raw: string): Parsed | null {
  const s = raw.trim();
  if (s.length === 0 || s.length > 64) return null;
  if (!s.includes(":")) {
    const octets = parseIpv4(s);
    return octets ? { v: 4, octets } : null;
  }
  const hextets = parseIpv6(s);
  if (!hextets) return null;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is that IPv4 address.
  if (hextets.slice(0, 5).every((h) => h === 0) && hextets[5] === 0xffff) {
    return { v: 4, octets: [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff] };
  }
  return { v: 6, hextets };
}

function prefix64(hextets: number[]): string {
  return `${hextets
    .slice(0, 4)
    .map((h) => h.toString(16))
    .join(":")}::/64`;
}

/** Something that is no address ("local" without Cloudflare, or a forged header): itself, bounded. */
function other(raw: string): string {
  return `other:${raw.trim().toLowerCase().slice(0, MAX_OTHER_LENGTH)}`;
}

/** The subject per-address rate limits count under: an IPv4 address itself, an IPv6 address's /64. */
export function addressLimitKey(raw: string): string {
  const ip = parse(raw);
  if (!ip) return other(raw);
  return ip.v === 4 ? ip.octets.join(".") : prefix64(ip.hextets);
}

/** The network a reporter is grouped by for auto-hide: IPv4 /24, IPv6 /64. */
export function reporterNetwork(raw: string): string {
  const ip = parse(raw);
  if (!ip) return other(raw);
  return ip.v === 4 ? `${ip.octets.slice(0, 3).join(".")}.0/24` : prefix64(ip.hextets);
}
