/**
 * The platform's way of making a payment request for a section that does not own them (a paired
 * code, the counter): the section that owns payment requests offers it through the contract
 * (`requestMaker`); a section's adapters reach it here, not through the registry of sections.
 */
export { requestMaker } from "~/sections/registry.server";
