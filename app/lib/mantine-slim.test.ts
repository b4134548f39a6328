import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ScrollArea } from "./mantine-slim";

describe("the client build's stand-ins for parts of Mantine", () => {
  it("draws Table.ScrollContainer's ScrollArea as a div that scrolls natively, without ScrollArea's own props", () => {
    const html = renderToStaticMarkup(
      createElement(
        ScrollArea,
        { offsetScrollbars: "x", type: "auto", className: "wide", style: { maxHeight: 10 } } as never,
        "rows",
      ),
    );
    expect(html).toBe('<div class="wide" style="overflow:auto;max-height:10px">rows</div>');
  });
});
