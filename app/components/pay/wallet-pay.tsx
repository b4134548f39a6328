import { useNonce } from "~/components/nonce";
import { useText } from "~/components/pay/use-text";
import { WALLET_ENHANCER } from "./wallet-enhancer";

type WalletsView = {
  sessionUrl: string;
  payUrl: string;
  logUrl: string;
  label: string;
  currency: string;
  country: string;
  applePay: { code: string } | null;
  googlePay: {
    code: string;
    gateway: string;
    gatewayMerchantId: string;
    merchantId: string | null;
    environment: "TEST" | "PRODUCTION";
  } | null;
};

/**
 * Apple Pay and Google Pay (decision 0039): an empty, hidden place in the pay form and the script
 * that fills it. The script shows a wallet's button only where the browser can pay with that wallet,
 * so without JavaScript, or on a device without the wallet, the page is the pay page as ever.
 */
export function WalletPay({ wallets }: { wallets: WalletsView }) {
  const t = useText();
  const nonce = useNonce();
  return (
    <div
      className="wallet-pay"
      hidden
      data-wallets={JSON.stringify(wallets)}
      data-text-apple={t("pay.wallet.apple_pay")}
      data-text-google={t("pay.wallet.google_pay")}
      data-text-failed={t("pay.wallet.failed")}
    >
      <div className="wallet-pay__buttons" data-wallet-buttons />
      <p className="wallet-pay__error" data-wallet-error role="status" />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: WALLET_ENHANCER }} />
    </div>
  );
}
