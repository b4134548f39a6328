import { Card, SimpleGrid, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

export type CheckinStatistics = { booked: number; attended: number; not_attended: number };

/** Booked, Attended, Not attended: the event's paid places and how many came through the door. */
export function CheckinTiles({ statistics }: { statistics: CheckinStatistics }) {
  const { t } = useTranslation();
  const tiles = [
    { name: "booked", title: t("checkin.tiles.booked"), value: statistics.booked },
    { name: "attended", title: t("checkin.tiles.attended"), value: statistics.attended },
    { name: "not_attended", title: t("checkin.tiles.not_attended"), value: statistics.not_attended },
  ];
  return (
    <SimpleGrid cols={{ base: 3 }} spacing="md" aria-live="polite">
      {tiles.map((tile) => (
        <Card
          key={tile.name}
          withBorder
          padding="md"
          className="stat-tile"
          component="section"
          aria-label={tile.title}
          data-tile={tile.name}
        >
          <Text size="sm" c="dimmed" fw={600}>
            {tile.title}
          </Text>
          <Text className="stat-value" mt={4} dir="ltr">
            {tile.value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
