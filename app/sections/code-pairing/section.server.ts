import type { SectionServer } from "../contract";
import { requestMaker } from "~/sections/services.server";
import { DEMO_CODE_PAIRING_JOB, seedDemoCodePairing } from "./domain/demo.server";

export const sectionServer: SectionServer = {
  key: "code_pairing",
  jobs: {
    [DEMO_CODE_PAIRING_JOB]: (db, payload: { merchantId: number; userId: number }) =>
      seedDemoCodePairing(db, payload, requestMaker()),
  },
};
