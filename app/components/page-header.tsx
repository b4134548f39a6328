import { Group, Text, Title } from "@mantine/core";

export function PageHeader({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: React.ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg">
      <div>
        <Title order={1} fz="h2">
          {title}
        </Title>
        {description ? <Text c="dimmed">{description}</Text> : null}
      </div>
      {children}
    </Group>
  );
}
