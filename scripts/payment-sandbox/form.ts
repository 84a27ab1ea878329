// Stripe's request bodies are form-encoded with bracket notation: `line_items[0][price_data][currency]=nok`,
// `metadata[payment_id]=…`, `expand[]=…`. This turns such a body into nested objects and arrays, the
// way Stripe's API reads it (indexed arrays, objects by key, `[]` appends).

export type FormValue = string | FormObject | FormValue[];
export interface FormObject {
  [key: string]: FormValue;
}

/** `a[b][0][c]` → ["a", "b", "0", "c"]; `a[]` → ["a", ""]. Returns null for a malformed key. */
export function keyPath(key: string): string[] | null {
  const head = /^[^[\]]+/.exec(key);
  if (!head) return null;
  const path = [head[0]];
  let rest = key.slice(head[0].length);
  while (rest.length > 0) {
    const m = /^\[([^[\]]*)\]/.exec(rest);
    if (!m) return null;
    path.push(m[1]);
    rest = rest.slice(m[0].length);
  }
  return path;
}

export class FormError extends Error {
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** Parse a form-encoded body into nested values. Throws FormError for keys that contradict each other. */
export function parseForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = keyPath(rawKey);
    if (!path) throw new FormError(`Invalid parameter name: ${rawKey}`, rawKey);
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < path.length; i++) {
      const slot = slotOf(node, path[i], rawKey);
      if (i === path.length - 1) {
        setSlot(node, slot, value);
        break;
      }
      const existing: FormValue = getSlot(node, slot) ?? (/^\d*$/.test(path[i + 1]) ? [] : {});
      if (typeof existing === "string") throw new FormError(`Conflicting values for ${rawKey}`, rawKey);
      setSlot(node, slot, existing);
      node = existing;
    }
  }
  return root;
}

/** An array index (`[]` appends) or an object key. */
function slotOf(node: FormObject | FormValue[], segment: string, rawKey: string): string | number {
  if (!Array.isArray(node)) {
    if (segment === "") throw new FormError(`Invalid parameter name: ${rawKey}`, rawKey);
    return segment;
  }
  const index: number = segment === "" ? node.length : Number(segment);
  if (!Number.isInteger(index) || index > 10_000) throw new FormError(`Invalid array index in ${rawKey}`, rawKey);
  return index;
}

function getSlot(node: FormObject | FormValue[], slot: string | number): FormValue | undefined {
  return Array.isArray(node) ? node[slot as number] : node[slot as string];
}

function setSlot(node: FormObject | FormValue[], slot: string | number, value: FormValue): void {
  if (Array.isArray(node)) node[slot as number] = value;
  else node[slot as string] = value;
}

/** Read a nested value by path ("payment_intent_data.transfer_data.destination"). */
export function pick(obj: FormValue | undefined, path: string): FormValue | undefined {
  let node: FormValue | undefined = obj;
  for (const part of path.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = Array.isArray(node) ? node[Number(part)] : node[part];
  }
  return node;
}

export function pickString(obj: FormValue | undefined, path: string): string | undefined {
  const v = pick(obj, path);
  return typeof v === "string" ? v : undefined;
}

/** A string-valued map (metadata). Non-string entries are dropped, empty values delete a key as in Stripe. */
export function pickMap(obj: FormValue | undefined, path: string): Record<string, string> {
  const v = pick(obj, path);
  const out: Record<string, string> = {};
  if (!v || typeof v === "string" || Array.isArray(v)) return out;
  for (const [k, value] of Object.entries(v)) if (typeof value === "string" && value !== "") out[k] = value;
  return out;
}
