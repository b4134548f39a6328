import { Outlet } from "react-router";

/** Every page lives under /en or /ar; the language middleware has already checked the prefix. */
export default function LanguageLayout() {
  return <Outlet />;
}
