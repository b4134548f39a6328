/**
 * Two imports of Mantine's that would bring a whole library for a small part of it; vite.config.ts
 * points them here in the client build (docs/decisions/0020):
 * - ScrollArea (and with it Table, whose ScrollContainer uses it) takes only `useMergeRefs` from
 *   @floating-ui/react, but the library is one module: every page with a table downloaded all of
 *   floating-ui. Mantine's own hook does the same.
 * - AppShell's header, footer and aside take only the class names of react-remove-scroll (which
 *   modals use to keep fixed bars in place while they lock scrolling), not its component.
 */
import { useMergedRef } from "@mantine/hooks";
import type { Ref } from "react";

export function useMergeRefs<T>(refs: Ref<T>[]) {
  return useMergedRef<T>(...refs);
}

/** react-remove-scroll's class names (mantine-slim.test.ts checks they are still the library's). */
export const RemoveScroll = {
  classNames: { fullWidth: "width-before-scroll-bar", zeroRight: "right-scroll-bar-position" },
};
