import { Checkbox, Group, Input, NumberInput, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useFieldError, valueAt, type FormState } from "./fields";

export type ShownImage = { id: number; url: string; position: number };

/**
 * A product's pictures: each one with its place and a box to remove it, the pictures uploaded with a
 * form that was refused (kept, saved with the product), and a file input for new ones. Works without
 * JavaScript: everything is applied when the product is saved.
 */
export function ProductImages({
  state,
  images,
  pending,
  maxImages,
  maxMegabytes,
}: {
  state: FormState;
  images: readonly ShownImage[];
  pending: readonly string[];
  maxImages: number;
  maxMegabytes: number;
}) {
  const { t } = useTranslation();
  const error = useFieldError(state, "images");
  const uploadError = useFieldError(state, "new_images");
  return (
    <Stack gap="sm">
      <Input.Wrapper
        label={t("catalogue_admin.products.images")}
        description={t("catalogue_admin.products.images_help", { max: maxImages, megabytes: maxMegabytes })}
        error={error}
        id="product-images"
      >
        {images.length ? (
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} mt="xs">
            {images.map((image, index) => {
              const changed = (valueAt(state.values, `images[${index}]`) ?? {}) as {
                position?: unknown;
                remove?: unknown;
              };
              return (
                <Paper key={image.id} withBorder p="xs">
                  <Stack gap={6}>
                    <img
                      src={image.url}
                      alt={t("catalogue_admin.products.image_number", { number: index + 1 })}
                      width={120}
                      height={120}
                      style={{ objectFit: "cover", width: "100%", height: 120, borderRadius: 4 }}
                    />
                    <input type="hidden" name={`images[${index}].id`} value={image.id} />
                    <NumberInput
                      name={`images[${index}].position`}
                      label={t("catalogue_admin.products.image_place")}
                      defaultValue={Number(changed.position ?? index + 1)}
                      min={0}
                      max={1000}
                      size="xs"
                      dir="ltr"
                    />
                    <Checkbox
                      name={`images[${index}].remove`}
                      value="on"
                      label={t("catalogue_admin.products.image_remove")}
                      size="xs"
                      defaultChecked={changed.remove === "on" || changed.remove === true}
                    />
                  </Stack>
                </Paper>
              );
            })}
          </SimpleGrid>
        ) : null}
      </Input.Wrapper>
      {pending.length ? (
        <Text size="sm" c="blue.8" role="status">
          {t("catalogue_admin.products.images_pending", { count: pending.length })}
        </Text>
      ) : null}
      {pending.map((key) => (
        <input key={key} type="hidden" name="_pending_images" value={key} />
      ))}
      <Input.Wrapper label={t("catalogue_admin.products.add_images")} error={uploadError} id="new-images">
        <Group mt={6}>
          <input
            id="new-images"
            type="file"
            name="new_images"
            multiple
            accept="image/jpeg,image/png,image/webp"
            aria-invalid={uploadError ? true : undefined}
            aria-describedby={uploadError ? "new-images-error" : undefined}
          />
        </Group>
      </Input.Wrapper>
    </Stack>
  );
}
