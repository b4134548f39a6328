/**
 * Imports of Mantine's that would bring more than is used; vite.config.ts points them here in the
 * client build (docs/decisions/0020):
 * - ScrollArea (and with it Table, whose ScrollContainer uses it) takes only `useMergeRefs` from
 *   @floating-ui/react, but the library is one module: every page with a table downloaded all of
 *   floating-ui. Mantine's own hook does the same.
 * - Table.ScrollContainer draws a ScrollArea unless `type="native"`, which every table here uses
 *   (a phone scrolls a table natively): Table's import of ScrollArea gets a plain scrolling div.
 */
import { useMergedRef } from "@mantine/hooks";
import { createElement, forwardRef, type CSSProperties, type HTMLAttributes, type Ref } from "react";

export function useMergeRefs<T>(refs: Ref<T>[]) {
  return useMergedRef<T>(...refs);
}

type ScrollAreaOnlyProps = {
  offsetScrollbars?: unknown;
  scrollbarSize?: unknown;
  type?: unknown;
  scrollbars?: unknown;
  scrollHideDelay?: unknown;
};

/** What Table.ScrollContainer would draw for `type="scrollarea"`: a div that scrolls natively. */
export const ScrollArea = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement> & ScrollAreaOnlyProps>(
  function NativeScrollArea(props, ref) {
    const {
      offsetScrollbars: _offset,
      scrollbarSize: _size,
      type: _type,
      scrollbars: _scrollbars,
      scrollHideDelay: _delay,
      style,
      ...rest
    } = props;
    return createElement("div", { ...rest, ref, style: { overflow: "auto", ...(style as CSSProperties | undefined) } });
  },
);
