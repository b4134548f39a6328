import { notFound } from "~/lib/guards.server";

export function loader(): never {
  notFound();
}

export default function NotFound() {
  return null;
}
