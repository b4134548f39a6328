/**
 * An e-mail address that wraps only after its @, never inside a name; a part too long for the
 * line is cut with an ellipsis (the whole address stays in the title and in the text).
 */
export function EmailAddress({ value }: { value: string }) {
  const at = value.lastIndexOf("@");
  if (at <= 0)
    return (
      <span className="email-address__part" title={value}>
        {value}
      </span>
    );
  return (
    <span className="email-address" dir="ltr" title={value}>
      <span className="email-address__part">{value.slice(0, at + 1)}</span>
      <wbr />
      <span className="email-address__part">{value.slice(at + 1)}</span>
    </span>
  );
}
