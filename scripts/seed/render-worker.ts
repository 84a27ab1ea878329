// Worker thread for scripts/seed.ts: renders demo photos so several cores share the work.
import { parentPort, workerData } from "node:worker_threads";
import { type ImageSpec, renderListingImage } from "./images";

const specs = (workerData as { specs: { id: string; spec: ImageSpec }[] }).specs;
for (const { id, spec } of specs) {
  const jpeg = renderListingImage(spec);
  const bytes = new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength).slice();
  parentPort!.postMessage({ id, bytes }, [bytes.buffer]);
}
