/**
 * The pay page's wallet script (decision 0039). It adds a wallet's button only where the browser
 * can pay with it: Apple Pay where `ApplePaySession.canMakePayments()`, Google Pay where the Payment
 * Request API says it can (`canMakePayment()` for `https://google.com/pay`). Apple's merchant
 * validation goes through this platform's server (routes/pay/api-wallet-session.ts); the authorized token is
 * sent to routes/pay/api-wallet-pay.ts, which pays and answers the result page the browser then goes to. A
 * canceled sheet or a wallet's error is only logged (public spec §8): the page stays as it was.
 */
export const WALLET_ENHANCER = `(function () {
  var doc = document;
  var box = doc.querySelector("[data-wallets]");
  var form = doc.querySelector("[data-pay-form]");
  if (!box || !form) return;
  var config = JSON.parse(box.getAttribute("data-wallets"));
  var buttons = box.querySelector("[data-wallet-buttons]");
  var message = box.querySelector("[data-wallet-error]");
  var lang = doc.documentElement.lang === "ar" ? "ar" : "en";
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": lang }, body: JSON.stringify(body) })
      .then(function (response) { return response.json().catch(function () { return {}; }).then(function (json) { return { ok: response.ok, body: json }; }); });
  }
  function log(provider, event, detail) {
    post(config.logUrl, { provider: provider, event: event, detail: String(detail || "").slice(0, 200) }).catch(function () {});
  }
  function firstError(body) {
    for (var key in body) { var value = body[key]; if (Array.isArray(value) && value.length) return value[0]; if (typeof value === "string") return value; }
    return box.getAttribute("data-text-failed");
  }
  /** The total of the wallet's method as the page shows it now (a typed amount re-prices it), and the amount typed. */
  function totalOf(code) {
    var radio = form.querySelector('input[name=gateway_code][value="' + code + '"]');
    return radio ? radio.getAttribute("data-amount") : null;
  }
  function busy() {
    var waiting = false;
    form.querySelectorAll("button[type=submit]").forEach(function (button) { if (button.disabled) waiting = true; });
    return waiting;
  }
  function payment(provider, code, token) {
    var extra = {};
    form.querySelectorAll("[name^='extra.']").forEach(function (input) { extra[input.name.slice(6)] = input.value; });
    var amount = form.querySelector("input[name=amount]");
    return post(config.payUrl, { provider: provider, gateway_code: code, token: token, total: totalOf(code), amount: amount ? amount.value : null, extra: extra });
  }
  function show(button) { buttons.appendChild(button); box.hidden = false; }
  function button(kind, text) {
    var element = doc.createElement("button");
    element.type = "button";
    element.className = "wallet-button wallet-button--" + kind;
    element.setAttribute("lang", lang);
    element.setAttribute("aria-label", text);
    element.textContent = text;
    return element;
  }

  var Apple = window.ApplePaySession;
  if (config.applePay && Apple) {
    var can = false;
    try { can = Apple.canMakePayments(); } catch (error) { log("apple_pay", "error", error); }
    if (can) {
      var apple = button("apple", box.getAttribute("data-text-apple"));
      apple.addEventListener("click", function () {
        var code = config.applePay.code;
        if (busy() || !totalOf(code)) return;
        message.textContent = "";
        var session = new Apple(3, {
          countryCode: config.country, currencyCode: config.currency,
          supportedNetworks: ["visa", "masterCard"], merchantCapabilities: ["supports3DS"],
          total: { label: config.label, amount: totalOf(code) }
        });
        var success = Apple.STATUS_SUCCESS === undefined ? 0 : Apple.STATUS_SUCCESS;
        var failure = Apple.STATUS_FAILURE === undefined ? 1 : Apple.STATUS_FAILURE;
        session.onvalidatemerchant = function (event) {
          post(config.sessionUrl, { validation_url: event.validationURL }).then(function (answer) {
            if (answer.ok) return session.completeMerchantValidation(answer.body);
            log("apple_pay", "validation_failed", firstError(answer.body));
            session.abort();
          }).catch(function (error) { log("apple_pay", "validation_failed", error); session.abort(); });
        };
        session.onpaymentauthorized = function (event) {
          payment("apple_pay", code, event.payment.token).then(function (answer) {
            session.completePayment(answer.ok && answer.body.state === "success" ? success : failure);
            if (answer.ok) { window.location.assign(answer.body.redirect_url); return; }
            log("apple_pay", "refused", firstError(answer.body));
            message.textContent = firstError(answer.body);
          }).catch(function (error) { session.completePayment(failure); log("apple_pay", "error", error); });
        };
        session.oncancel = function () { log("apple_pay", "cancel"); };
        try { session.begin(); } catch (error) { log("apple_pay", "error", error); }
      });
      show(apple);
    }
  }

  var google = config.googlePay;
  function googleRequest(total) {
    var data = {
      environment: google.environment, apiVersion: 2, apiVersionMinor: 0,
      merchantInfo: google.merchantId ? { merchantName: config.label, merchantId: google.merchantId } : { merchantName: config.label },
      allowedPaymentMethods: [{
        type: "CARD",
        parameters: { allowedAuthMethods: ["PAN_ONLY", "CRYPTOGRAM_3DS"], allowedCardNetworks: ["VISA", "MASTERCARD"] },
        tokenizationSpecification: { type: "PAYMENT_GATEWAY", parameters: { gateway: google.gateway, gatewayMerchantId: google.gatewayMerchantId } }
      }]
    };
    return new PaymentRequest([{ supportedMethods: "https://google.com/pay", data: data }], { total: { label: config.label, amount: { currency: config.currency, value: total } } });
  }
  if (google && window.PaymentRequest && totalOf(google.code)) {
    var probe;
    try { probe = googleRequest(totalOf(google.code)).canMakePayment(); } catch (error) { log("google_pay", "error", error); }
    if (probe) probe.then(function (can) {
      if (!can) return;
      var pay = button("google", box.getAttribute("data-text-google"));
      pay.addEventListener("click", function () {
        var code = google.code;
        if (busy() || !totalOf(code)) return;
        message.textContent = "";
        googleRequest(totalOf(code)).show().then(function (response) {
          var token = response.details && response.details.paymentMethodData && response.details.paymentMethodData.tokenizationData ? response.details.paymentMethodData.tokenizationData.token : "";
          return payment("google_pay", code, token).then(function (answer) {
            return response.complete(answer.ok && answer.body.state === "success" ? "success" : "fail").then(function () {
              if (answer.ok) { window.location.assign(answer.body.redirect_url); return; }
              log("google_pay", "refused", firstError(answer.body));
              message.textContent = firstError(answer.body);
            });
          });
        }).catch(function (error) { log("google_pay", error && error.name === "AbortError" ? "cancel" : "error", error); });
      });
      show(pay);
    }).catch(function (error) { log("google_pay", "error", error); });
  }
})();`;
