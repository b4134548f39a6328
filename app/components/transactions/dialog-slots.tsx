import { lazySlot } from "~/components/lazy-slot";

/**
 * The list's and the details page's dialogs, whose code the browser loads only when one is open
 * (one in the page's URL, or one a link of the row menu opens: the menu loads it as it opens).
 */
export const loadDialogs = () => import("./dialogs");

export const OperationDialog = lazySlot("transaction-dialogs", loadDialogs, "OperationDialog");
export const DoneDialog = lazySlot("transaction-dialogs", loadDialogs, "DoneDialog");
export const ConfirmDialog = lazySlot("transaction-dialogs", loadDialogs, "ConfirmDialog");
