// The modules that components/lazy-slot.tsx slots load in the browser, loaded on the server up
// front so that pages arrive with them drawn. entry.server.tsx provides them when the server starts.
import { provideSlotModule } from "~/components/lazy-slot";
import * as noticeStack from "~/components/shell/notice-stack";
import * as dialogs from "~/components/transactions/dialogs";

export function provideSlotModules() {
  provideSlotModule("transaction-dialogs", dialogs);
  provideSlotModule("notice-stack", noticeStack);
}
