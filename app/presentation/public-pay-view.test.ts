import { describe, expect, it } from "vitest";
import type { PayChoice } from "~/domain/payments/pay-page.server";
import { formatAmount } from "~/lib/money";
import { payChoicesBody } from "./public-pay-view.server";

const knet: PayChoice = {
  gateway_code: "knet-1",
  gateway: "KNET",
  kind: "knet",
  logo_url: "/logos/knet.svg",
  amount: 12_750,
  base_amount: 12_500,
  fee: 250,
  fee_payer: "customer",
  currency_code: "KWD",
};
const card: PayChoice = {
  gateway_code: "card-2",
  gateway: "Card",
  kind: "card",
  logo_url: null,
  amount: 12_500,
  base_amount: 12_500,
  fee: 0,
  fee_payer: "merchant",
  currency_code: "KWD",
};

describe("a pay-choices answer", () => {
  it("lists each choice in decimals of its currency with its fee in words, and names the default", () => {
    expect(payChoicesBody([card, knet], "en")).toEqual({
      pay_choices: [
        {
          gateway: "Card",
          gateway_code: "card-2",
          value: "card-2",
          logo_url: null,
          amount: "12.500",
          base_amount: "12.500",
          fee: "0.000",
          fee_description: "No fee",
          currency_code: "KWD",
          delivery_charges: null,
          button_verb: "Pay Now",
        },
        {
          gateway: "KNET",
          gateway_code: "knet-1",
          value: "knet-1",
          logo_url: "/logos/knet.svg",
          amount: "12.750",
          base_amount: "12.500",
          fee: "0.250",
          fee_description: `Fee ${formatAmount(250, "KWD", "en")}`,
          currency_code: "KWD",
          delivery_charges: null,
          button_verb: "Pay Now",
        },
      ],
      default_pay_choice: "knet-1",
    });
  });

  it("speaks Arabic when asked, and has no default when there is no choice", () => {
    const [choice] = payChoicesBody([knet], "ar").pay_choices;
    expect(choice).toMatchObject({
      fee_description: `رسوم ${formatAmount(250, "KWD", "ar")}`,
      button_verb: "ادفع الآن",
    });
    expect(payChoicesBody([], "ar")).toEqual({ pay_choices: [], default_pay_choice: null });
  });
});
