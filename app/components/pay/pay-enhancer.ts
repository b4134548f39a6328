/**
 * The pay page's only JavaScript: a few hundred bytes instead of a React bundle, for slow phones.
 * Everything works without it; with it, the carousel arrows appear, only the chosen method's Pay
 * button shows (the stylesheet does it too where the browser can), and an editable amount re-prices
 * the methods and their buttons in place, 500 ms after the last key, through the public pay-choices API.
 */
export const PAY_ENHANCER = `(function () {
  var doc = document;
  var locate = doc.querySelector("[data-use-my-location]");
  if (locate && navigator.geolocation) {
    locate.hidden = false;
    locate.addEventListener("click", function () {
      navigator.geolocation.getCurrentPosition(function (position) {
        doc.querySelector("input[name=lat]").value = position.coords.latitude.toFixed(6);
        doc.querySelector("input[name=lng]").value = position.coords.longitude.toFixed(6);
      });
    });
  }
  var payForm = doc.querySelector("[data-pay-form]");
  if (!payForm) return;
  var buttons = payForm.querySelectorAll("[data-pay-now]");
  var track = payForm.querySelector(".pay-choices");
  var lang = doc.documentElement.lang === "ar" ? "ar" : "en";
  payForm.setAttribute("data-enhanced", "");
  function chosen() { return payForm.querySelector("input[name=gateway_code]:checked"); }
  function label() {
    var radio = chosen();
    buttons.forEach(function (button) {
      var code = button.getAttribute("data-pay-now");
      button.hidden = !radio || radio.value !== code;
      var template = button.getAttribute("data-template");
      var choice = payForm.querySelector('input[name=gateway_code][value="' + code + '"]');
      if (template && choice) button.querySelector(".pay-now__label").textContent = template.replace("{amount}", choice.getAttribute("data-total")).trim();
    });
    var keep = doc.querySelector("[data-amount-form] input[name=gateway]");
    if (keep && radio) keep.value = radio.value;
  }
  label();
  payForm.addEventListener("change", label);
  if (track && track.children.length > 3) {
    payForm.querySelectorAll("[data-scroll]").forEach(function (arrow) {
      arrow.hidden = false;
      arrow.addEventListener("click", function () {
        var rtl = getComputedStyle(track).direction === "rtl";
        var step = arrow.getAttribute("data-scroll") === "next" ? 1 : -1;
        track.scrollBy({ left: step * (rtl ? -1 : 1) * track.clientWidth, behavior: "smooth" });
      });
    });
  }
  var amountForm = doc.querySelector("[data-amount-form]");
  if (!amountForm) return;
  var input = amountForm.querySelector("input[name=amount]");
  var error = amountForm.querySelector("[data-amount-error]");
  var hidden = payForm.querySelector("input[name=amount]");
  var timer;
  // Only the newest answer counts, for the amount it was asked for; until it is in, the Pay buttons
  // wait, so nothing is paid at a total the page does not show.
  var latest = 0;
  function payButtons(enabled) {
    payForm.querySelectorAll("button[type=submit]").forEach(function (button) { button.disabled = !enabled; });
  }
  function money(value, currency) {
    var places = (value.split(".")[1] || "").length;
    return new Intl.NumberFormat(lang === "ar" ? "ar-KW-u-nu-latn" : "en-KW", {
      style: "currency", currency: currency, currencyDisplay: lang === "ar" ? "symbol" : "code",
      minimumFractionDigits: places, maximumFractionDigits: places
    }).format(value);
  }
  function reprice() {
    var sent = input.value;
    var seq = ++latest;
    fetch(payForm.getAttribute("data-choices-url"), {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": lang },
      body: JSON.stringify({ amount: sent })
    }).then(function (response) {
      return response.json().then(function (body) { return { ok: response.ok, body: body }; });
    }).then(function (answer) {
      if (seq !== latest) return;
      if (!answer.ok) { error.textContent = (answer.body.amount || answer.body.non_field_errors || [""])[0]; input.setAttribute("aria-invalid", "true"); return; }
      error.textContent = ""; input.removeAttribute("aria-invalid");
      hidden.value = sent;
      payButtons(input.value === sent);
      answer.body.pay_choices.forEach(function (choice) {
        var card = payForm.querySelector('[data-gateway="' + choice.gateway_code + '"]');
        if (!card) return;
        var total = money(choice.amount, choice.currency_code);
        card.querySelector("input").setAttribute("data-total", total);
        card.querySelector("input").setAttribute("data-amount", choice.amount);
        card.querySelector(".pay-choice__total").textContent = total;
        card.querySelector(".pay-choice__fee").textContent = choice.fee_description;
      });
      label();
    }).catch(function () {});
  }
  input.addEventListener("input", function () { payButtons(input.value === hidden.value); clearTimeout(timer); timer = setTimeout(reprice, 500); });
  amountForm.addEventListener("submit", function (event) { event.preventDefault(); clearTimeout(timer); reprice(); });
})();`;
