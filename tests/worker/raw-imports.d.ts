// Vite's `?raw` imports (the file's text), used to check committed configuration in worker tests.
declare module "*?raw" {
  const text: string;
  export default text;
}
