import type { SectionServer } from "../contract";

export const sectionServer: SectionServer = {
  key: "catalogue",
};
