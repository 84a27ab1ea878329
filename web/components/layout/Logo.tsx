/** The brand mark (same drawing as public/favicon.svg). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false" className={className}>
      <rect width="64" height="64" rx="14" fill="#0f766e" />
      <path d="M16 40h32l-4-14H20z" fill="#fde68a" />
      <circle cx="24" cy="44" r="5" fill="#fff" />
      <circle cx="40" cy="44" r="5" fill="#fff" />
    </svg>
  );
}
