import type { KeyboardEvent, ReactNode } from "react";
import { cn } from "../../lib/cn";

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

/** The ids that tie a tab to the one panel below the tabs. */
export const tabId = (base: string, id: string) => `${base}-${id}`;
export const tabPanelId = (base: string) => `${base}-panel`;

/**
 * A row of tabs with one panel below (`TabPanel`) showing the selected tab: the ARIA tabs pattern
 * without a library (Radix tabs were about 10 KB gzipped of /auth's first load, decision 104). The
 * selected tab is the one tab stop; arrow keys, Home and End select and focus another.
 */
export function Tabs<T extends string>({
  idBase,
  label,
  tabs,
  value,
  onChange,
  className,
  tabClassName,
  onIntent,
}: {
  idBase: string;
  label: string;
  tabs: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  className?: string;
  tabClassName: (selected: boolean) => string;
  /** A pointer over a tab or focus on it: the sign to fetch what it will show. */
  onIntent?: (id: T) => void;
}) {
  const onKey = (event: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === value);
    const last = tabs.length - 1;
    const keys: Record<string, number> = { ArrowRight: i === last ? 0 : i + 1, ArrowLeft: i === 0 ? last : i - 1, Home: 0, End: last };
    const next = keys[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onChange(tabs[next].id);
    document.getElementById(tabId(idBase, tabs[next].id))?.focus();
  };
  return (
    <div role="tablist" aria-label={label} className={className} onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          id={tabId(idBase, t.id)}
          type="button"
          role="tab"
          aria-selected={value === t.id}
          aria-controls={tabPanelId(idBase)}
          tabIndex={value === t.id ? 0 : -1}
          onClick={() => onChange(t.id)}
          onPointerEnter={onIntent ? () => onIntent(t.id) : undefined}
          onFocus={onIntent ? () => onIntent(t.id) : undefined}
          className={cn(tabClassName(value === t.id))}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of the selected tab (`value`). */
export function TabPanel({
  idBase,
  value,
  className,
  children,
}: {
  idBase: string;
  value: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div id={tabPanelId(idBase)} role="tabpanel" aria-labelledby={tabId(idBase, value)} className={className}>
      {children}
    </div>
  );
}
