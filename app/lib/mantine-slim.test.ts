import { describe, expect, it } from "vitest";
import { RemoveScroll as Library } from "react-remove-scroll";
import { RemoveScroll } from "./mantine-slim";

describe("the client build's stand-ins for parts of Mantine's dependencies", () => {
  it("keeps react-remove-scroll's class names, which modals look for on fixed bars", () => {
    expect(RemoveScroll.classNames).toEqual({ fullWidth: Library.classNames.fullWidth, zeroRight: Library.classNames.zeroRight });
  });
});
