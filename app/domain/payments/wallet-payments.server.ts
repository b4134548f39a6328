import { errorField, log } from "~/lib/log.server";
import type { DB } from "~/db/database.server";
import { sha256 } from "~/lib/crypto.server";
import type { Language } from "~/lib/i18n";
import type { TextParams } from "~/lib/outcome";
import type { CheckoutAnswers } from "./checkout-fields.server";
import {
  completeAttempt,
  findAttempt,
  gatewayAttempt,
  heldToTotal,
  openAttempt,
  resultPageUrl,
  settleByInquiry,
  type PlatformAddresses,
} from "./attempts.server";
import { findMerchantGateway, toGatewayConfig, type GatewayRow } from "./gateway-settings.server";
import type { GatewayOutcome } from "./gateways/gateway";
import { adapterFor, gatewayKind, walletsOf, type WalletProvider } from "./gateways/registry";
import { loadPayPage, payChoicesFor } from "./pay-page.server";
import { applePaySetup, googleMerchantId } from "./wallet-settings.server";

/** A wallet's token is a few kilobytes (Apple's encrypted payment data); anything larger is not one. */
const MAX_WALLET_TOKEN = 32 * 1024;

/** Whether a gateway takes this wallet on the pay page: its kind offers it, and Apple Pay is set up for Apple Pay. */
export function offersWallet(gateway: Pick<GatewayRow, "kind">, provider: WalletProvider, applePayReady: boolean) {
  return walletsOf(gateway.kind).includes(provider) && (provider !== "apple_pay" || applePayReady);
}

export type WalletPayOutcome =
  | { ok: true; attemptId: string; state: string; resultUrl: string }
  | { ok: false; error: string; field?: "amount" | "gateway_code" | "token"; params?: TextParams };

/**
 * Pays a transaction with a wallet's token (Apple Pay, Google Pay) in one call to the gateway,
 * without its hosted page. Everything the customer's browser sent is checked as a Pay Now form is
 * (the transaction payable, the method one the page offers, the amount), and more: the gateway must
 * take this wallet, and the total the customer approved on the payment sheet must be the one
 * charged. The token is the submission: sent again (a double tap, a replay) it finds the attempt it
 * paid and never reaches the gateway a second time; a token already used for another transaction is
 * refused. The gateway's answer, asked from this server, settles the attempt through completeAttempt,
 * held to the attempt's total; an answer that never came is asked again by inquiry.
 */
export async function payAttemptWithWallet(
  db: DB,
  input: {
    transactionId: string;
    gatewayCode: string;
    provider: WalletProvider;
    token: string;
    /** The total shown on the payment sheet, fee included, as a decimal string. */
    total: string;
    /** The amount typed on an editable request, as the Pay Now form sends it. */
    amountText?: string | null;
    lang: Language;
    addresses: PlatformAddresses;
    plugins: readonly string[];
    answers?: CheckoutAnswers | null;
  },
): Promise<WalletPayOutcome> {
  if (!input.token || input.token.length > MAX_WALLET_TOKEN)
    return { ok: false, error: "pay.errors.wallet_token", field: "token" };
  const submissionToken = sha256(`wallet:${input.provider}:${input.token}`);
  const used = await db
    .selectFrom("payment_attempts")
    .select(["transaction_id"])
    .where("submission_token", "=", submissionToken)
    .executeTakeFirst();
  if (used && used.transaction_id !== input.transactionId)
    return { ok: false, error: "pay.errors.wallet_token", field: "token" };
  const applePayReady = input.provider === "apple_pay" ? (await applePaySetup(db)) !== null : false;
  const opened = await openAttempt(
    db,
    {
      transactionId: input.transactionId,
      gatewayCode: input.gatewayCode,
      amountText: input.amountText,
      submissionToken,
      lang: input.lang,
      addresses: input.addresses,
      plugins: input.plugins,
      answers: input.answers,
    },
    { accepts: (gateway) => offersWallet(gateway, input.provider, applePayReady), expectedTotal: input.total },
  );
  if (!opened.ok) return opened;
  const result = (attempt: { id: string; lang: string; state: string }) => ({
    ok: true as const,
    attemptId: attempt.id,
    state: attempt.state,
    resultUrl: resultPageUrl(input.addresses, attempt),
  });
  // The same token again: what became of it, without asking the gateway to take it twice.
  if (opened.kind === "submitted") return result(opened.attempt);
  const { attempt, gateway } = opened;
  const adapter = adapterFor(gateway.kind);
  let outcome: GatewayOutcome & { gatewayReference?: string };
  try {
    if (!adapter.payWithWallet) throw new Error(`${gateway.kind} takes no wallet`);
    outcome = await adapter.payWithWallet(toGatewayConfig(gateway, input.addresses), gatewayAttempt(attempt), {
      provider: input.provider,
      token: input.token,
    });
  } catch (error) {
    // The gateway may have taken the money: only it can say, when asked.
    log.warn({ error: errorField(error) }, "wallet payment failed");
    return result(await settleByInquiry(db, attempt, input.addresses));
  }
  if (outcome.gatewayReference) {
    await db
      .updateTable("payment_attempts")
      .set({ gateway_reference: outcome.gatewayReference })
      .where("id", "=", attempt.id)
      .where("gateway_reference", "is", null)
      .execute();
  }
  await completeAttempt(db, attempt.id, heldToTotal(outcome, attempt.total));
  return result((await findAttempt(db, attempt.id))!);
}

export type WalletOffers = {
  /** The method Apple Pay pays with: the first of the page's choices whose gateway takes it, once Apple Pay is set up. */
  applePay: { gatewayCode: string; merchantIdentifier: string } | null;
  /** Google Pay's request: the gateway's name in Google's tokenization and the merchant's id at it. */
  googlePay: {
    gatewayCode: string;
    gateway: string;
    gatewayMerchantId: string;
    googleMerchantId: string | null;
  } | null;
};

/** Which wallets a pay page offers, and through which of its methods. */
export async function walletOffers(
  db: DB,
  merchantId: number,
  choices: readonly { gateway_code: string; kind: string }[],
  addresses: PlatformAddresses,
): Promise<WalletOffers> {
  const offered = choices.filter((choice) => walletsOf(choice.kind).length > 0);
  if (!offered.length) return { applePay: null, googlePay: null };
  const apple = await applePaySetup(db);
  const appleChoice = apple ? offered.find((choice) => offersWallet(choice, "apple_pay", true)) : undefined;
  const googleChoice = offered.find((choice) => offersWallet(choice, "google_pay", false));
  let googlePay: WalletOffers["googlePay"] = null;
  const tokenization = googleChoice ? gatewayKind(googleChoice.kind).googlePay : undefined;
  const gateway = googleChoice ? await findMerchantGateway(db, merchantId, googleChoice.gateway_code) : undefined;
  if (googleChoice && tokenization && gateway) {
    const gatewayMerchantId = toGatewayConfig(gateway, addresses).credentials[tokenization.merchantIdCredential];
    if (gatewayMerchantId)
      googlePay = {
        gatewayCode: googleChoice.gateway_code,
        gateway: tokenization.gateway,
        gatewayMerchantId,
        googleMerchantId: await googleMerchantId(db),
      };
  }
  return {
    applePay:
      appleChoice && apple
        ? { gatewayCode: appleChoice.gateway_code, merchantIdentifier: apple.merchantIdentifier }
        : null,
    googlePay,
  };
}

/** The wallets a transaction's pay page offers now; none when it cannot be paid. (Reading it does not count as the customer opening the link.) */
export async function walletOffersFor(
  db: DB,
  transactionId: string,
  plugins: readonly string[],
  addresses: PlatformAddresses,
): Promise<WalletOffers> {
  const page = await loadPayPage(db, transactionId, plugins, { opens: false });
  if (page.status !== "payable") return { applePay: null, googlePay: null };
  const choices = await payChoicesFor(db, page.transaction, page.transaction.amount, "en");
  return walletOffers(db, page.transaction.merchant_id, choices, addresses);
}
