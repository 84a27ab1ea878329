import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Flag } from "lucide-react";
import type { DeferredMenuProps } from "../../components/ui/DeferredMenu";
import { LoadedMenu } from "../../components/ui/LoadedMenu";

/**
 * Others' messages have "Rapporter melding" (docs/product.md "Messages and chat"), which opens the
 * report dialog. Loaded when a message's menu is first opened (`MessageBubble`, decision 102).
 */
export default function MessageMenu({ onReport, trigger, openedBy }: { onReport: () => void } & DeferredMenuProps) {
  return (
    <LoadedMenu trigger={trigger} openedBy={openedBy} align="start" sideOffset={4}>
      <DropdownMenu.Item
        onSelect={onReport}
        className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-3 text-base text-stone-800 select-none data-[highlighted]:bg-stone-100"
      >
        <Flag aria-hidden="true" className="size-5" />
        Rapporter melding
      </DropdownMenu.Item>
    </LoadedMenu>
  );
}
