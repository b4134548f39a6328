import { notFound } from "~/web/guards.server";

export function loader(): never {
  notFound();
}

export default function NotFound() {
  return null;
}
