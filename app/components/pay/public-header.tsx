import { Anchor, Group, Image, Text } from "@mantine/core";
import { IconBrandFacebook, IconBrandInstagram, IconBrandX, IconWorld } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { switchLanguagePath, type Language } from "~/lib/i18n";

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

export function PublicHeader({ unit, lang }: { unit: UnitHeader; lang: Language }) {
  const { t } = useTranslation();
  const location = useLocation();
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
      <Group justify="space-between" wrap="nowrap" maw={720} mx="auto" px="md" py="sm">
        <Group gap="sm" wrap="nowrap">
          {unit.logoUrl ? <Image src={unit.logoUrl} alt={unit.title} h={70} w="auto" fit="contain" /> : null}
          {unit.showTitle && !transparent ? (
            <Text fw={700} fz="lg" c={color}>
              {unit.title}
            </Text>
          ) : null}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {social.map((link) => (
            <Anchor key={link.label} href={link.href!} target="_blank" rel="noopener noreferrer" aria-label={link.label} c={color}>
              {link.icon}
            </Anchor>
          ))}
          <nav aria-label={t("pay.language")}>
            <Group gap={6} wrap="nowrap">
              {(["en", "ar"] as const).map((code) => (
                <Anchor
                  key={code}
                  href={switchLanguagePath(location.pathname, location.search, code)}
                  fw={code === lang ? 800 : 500}
                  c={color}
                  aria-current={code === lang ? "true" : undefined}
                  lang={code}
                >
                  {code === "en" ? "EN" : "AR"}
                </Anchor>
              ))}
            </Group>
          </nav>
        </Group>
      </Group>
    </header>
  );
}
