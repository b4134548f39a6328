import { IconBrandFacebook, IconBrandInstagram, IconBrandX, IconWorld } from "@tabler/icons-react";
import { useText } from "~/components/pay/use-text";
import type { Language } from "~/lib/i18n";
import { LanguageLinks } from "./language-links";

export type UnitHeader = {
  title: string;
  logoUrl: string | null;
  headerColor: string;
  showTitle: boolean;
  website: string | null;
  instagram: string | null;
  twitter: string | null;
  facebook: string | null;
  terms?: string | null;
};

/** Black or white text on the header colour: brightness (YIQ) at or above 155 takes black. */
export function headerTextColor(color: string): "black" | "white" {
  const hex = /^#([0-9a-f]{6})$/i.exec(color)?.[1];
  if (!hex) return "black";
  const [r, g, b] = [0, 2, 4].map((offset) => parseInt(hex.slice(offset, offset + 2), 16));
  return (r * 299 + g * 587 + b * 114) / 1000 >= 155 ? "black" : "white";
}

/** The merchant unit's header on customer pages; `path` is the page's own path and query, for the language links. */
export function PublicHeader({ unit, lang, path }: { unit: UnitHeader; lang: Language; path: string }) {
  const t = useText();
  const transparent = unit.headerColor === "transparent";
  const color = transparent ? "black" : headerTextColor(unit.headerColor);
  const social = [
    { href: unit.website, label: t("pay.website"), icon: <IconWorld size={20} /> },
    { href: unit.instagram, label: "Instagram", icon: <IconBrandInstagram size={20} /> },
    { href: unit.twitter, label: "X (Twitter)", icon: <IconBrandX size={20} /> },
    { href: unit.facebook, label: "Facebook", icon: <IconBrandFacebook size={20} /> },
  ].filter((link) => link.href);
  return (
    <header className="public-header" style={{ background: transparent ? "transparent" : unit.headerColor, color }}>
      <div className="public-header__bar">
        <div className="public-header__brand">
          {unit.logoUrl ? (
            <img className="public-header__logo" src={unit.logoUrl} alt={unit.title} height={70} />
          ) : null}
          {unit.showTitle && !transparent ? <p className="public-header__title">{unit.title}</p> : null}
        </div>
        <div className="public-header__links">
          {social.map((link) => (
            <a key={link.label} href={link.href!} target="_blank" rel="noopener noreferrer" aria-label={link.label}>
              {link.icon}
            </a>
          ))}
          <LanguageLinks lang={lang} path={path} />
        </div>
      </div>
    </header>
  );
}

/** A customer page's header without a merchant's (the list of several merchants' events): the language links alone. */
export function BareHeader({ lang, path }: { lang: Language; path: string }) {
  return (
    <header className="public-header">
      <div className="public-header__bar">
        <div className="public-header__brand" />
        <LanguageLinks lang={lang} path={path} />
      </div>
    </header>
  );
}
