import { ActionIcon, Button, Group, Text } from "@mantine/core";
import { IconChevronLeft, IconChevronRight } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

type Choice = { code: string; name: string; logoUrl: string | null; total: string; fee: string | null; feeByMerchant: boolean };

/**
 * The payment methods as radio cards in a row that scrolls (4 visible, 3 under 600 px). Without
 * JavaScript it is a plain scrollable list of radios; with it, arrows scroll it and the Pay Now
 * button follows the chosen method's total.
 */
export function PayChoices({ choices, selected, busy }: { choices: Choice[]; selected: string | null; busy: boolean }) {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(selected ?? choices[0]?.code);
  const [hydrated, setHydrated] = useState(false);
  const track = useRef<HTMLDivElement>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => setCurrent(selected ?? choices[0]?.code), [selected, choices]);

  const scroll = (direction: 1 | -1) => {
    const element = track.current;
    if (!element) return;
    const rtl = getComputedStyle(element).direction === "rtl";
    element.scrollBy({ left: direction * (rtl ? -1 : 1) * element.clientWidth, behavior: "smooth" });
  };
  const chosen = choices.find((choice) => choice.code === current);

  return (
    <fieldset className="pay-choices-fieldset">
      <legend>
        <Text fw={700}>{t("pay.choose_method")}</Text>
      </legend>
      <Group gap="xs" wrap="nowrap" align="center">
        {hydrated && choices.length > 3 ? (
          <ActionIcon variant="default" onClick={() => scroll(-1)} aria-label={t("pay.previous")}>
            <IconChevronLeft size={18} className="flip-rtl" />
          </ActionIcon>
        ) : null}
        <div className="pay-choices" ref={track}>
          {choices.map((choice) => (
            <label key={choice.code} className="pay-choice">
              <input
                type="radio"
                name="gateway_code"
                value={choice.code}
                defaultChecked={choice.code === selected}
                onChange={() => setCurrent(choice.code)}
                required
              />
              <span className="pay-choice__card">
                {choice.logoUrl ? <img src={choice.logoUrl} alt="" width={72} height={36} /> : null}
                <span className="pay-choice__name">{choice.name}</span>
                <span className="pay-choice__total">{choice.total}</span>
                <span className="pay-choice__fee">
                  {choice.fee ? t("pay.fee_line", { fee: choice.fee }) : choice.feeByMerchant ? t("pay.no_fee") : t("pay.no_fee")}
                </span>
              </span>
            </label>
          ))}
        </div>
        {hydrated && choices.length > 3 ? (
          <ActionIcon variant="default" onClick={() => scroll(1)} aria-label={t("pay.next")}>
            <IconChevronRight size={18} className="flip-rtl" />
          </ActionIcon>
        ) : null}
      </Group>
      <Button type="submit" size="lg" fullWidth mt="md" loading={busy}>
        {t("pay.pay_now", { amount: chosen?.total ?? "" }).trim()}
      </Button>
    </fieldset>
  );
}
