import type { FieldMetadata } from "@conform-to/react";
import { SimpleGrid } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { CheckboxField, TextareaField, TextField } from "~/components/forms";

type Field = FieldMetadata<any, any, string[]>;

/**
 * A unit's branding as customers see it: its names in both languages, header colour, website and
 * social links, and terms. The profile (the default unit) and each unit's page ask the same, under
 * their own field names and labels.
 */
export function BrandingFields({
  fields,
  label,
}: {
  fields: {
    titleEn: Field;
    titleAr: Field;
    headerColor: Field;
    website: Field;
    showTitle: Field;
    instagram: Field;
    twitter: Field;
    facebook: Field;
    termsEn: Field;
    termsAr: Field;
  };
  /** A field's label by its name in the form. */
  label: (name: string) => string;
}) {
  const { t } = useTranslation();
  const link = (field: Field) => (
    <TextField field={field} label={label(field.name)} type="url" maxLength={300} dir="ltr" placeholder="https://" />
  );
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField field={fields.titleEn} label={label(fields.titleEn.name)} required maxLength={120} dir="ltr" />
        <TextField field={fields.titleAr} label={label(fields.titleAr.name)} required maxLength={120} dir="rtl" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextField
          field={fields.headerColor}
          label={label(fields.headerColor.name)}
          description={t("admin.profile.header_color_hint")}
          required
          maxLength={11}
          dir="ltr"
        />
        {link(fields.website)}
      </SimpleGrid>
      <CheckboxField field={fields.showTitle} label={label(fields.showTitle.name)} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {link(fields.instagram)}
        {link(fields.twitter)}
        {link(fields.facebook)}
      </SimpleGrid>
      <TextareaField
        field={fields.termsEn}
        label={label(fields.termsEn.name)}
        maxLength={5000}
        autosize
        minRows={3}
        dir="ltr"
      />
      <TextareaField
        field={fields.termsAr}
        label={label(fields.termsAr.name)}
        maxLength={5000}
        autosize
        minRows={3}
        dir="rtl"
      />
    </>
  );
}
