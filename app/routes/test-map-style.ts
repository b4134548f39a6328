import { notFound } from "~/web/guards.server";

/** A tile-less map style for the end-to-end tests (no tile server is reachable there); TEST_CLOCK=1 only. */
export function loader() {
  if (process.env.TEST_CLOCK !== "1") notFound();
  return Response.json({
    version: 8,
    sources: {},
    layers: [{ id: "background", type: "background", paint: { "background-color": "#dfe9ee" } }],
  });
}
