/**
 * Refuses a key that could reach outside its folder or bucket prefix, or that a file system or an
 * S3-compatible service would read differently: empty, `.` or `..` segments, a leading or doubled
 * slash, a backslash, control characters.
 */
export function checkStorageKey(key: string) {
  const invalid =
    key === "" ||
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    /[\\\u0000-\u001f\u007f]/.test(key) ||
    key.split("/").some((segment) => segment === "" || segment === "." || segment === "..");
  if (invalid) throw new Error("Invalid storage key");
  return key;
}
