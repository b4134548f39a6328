/**
 * The delivery map (MapLibre, loaded only on this step and only when a map style is configured).
 * View mode first; "Tap to edit location" lets the pin move, with the "Please select your location
 * precisely" hint; Confirm returns to view mode and fills the coordinates. Saving stays disabled
 * while editing and until the pin has been placed. Without WebGL or JavaScript, the coordinates
 * form underneath is what the customer uses.
 */
export const DELIVERY_MAP_SCRIPT = `(function () {
  var doc = document;
  var box = doc.getElementById("delivery-map");
  if (!box || !window.WebGLRenderingContext) return;
  var form = box.closest("form");
  var lat = form.querySelector("input[name=lat]");
  var lng = form.querySelector("input[name=lng]");
  var save = form.querySelector("[data-save-location]");
  var edit = doc.querySelector("[data-edit-location]");
  var hint = doc.querySelector("[data-map-hint]");
  var confirm = doc.querySelector("[data-confirm-location]");
  var css = doc.createElement("link");
  css.rel = "stylesheet";
  css.href = "/vendor/maplibre-gl-5.24.1.css";
  doc.head.appendChild(css);
  var script = doc.createElement("script");
  script.src = "/vendor/maplibre-gl-5.24.1.js";
  script.onload = function () {
    try {
      maplibregl.setWorkerUrl("/vendor/maplibre-gl-worker-5.24.1.js");
      var center = [Number(box.getAttribute("data-lng")), Number(box.getAttribute("data-lat"))];
      box.hidden = false;
      var map = new maplibregl.Map({ container: box, style: box.getAttribute("data-style"), center: center, zoom: Number(box.getAttribute("data-zoom")) });
      var marker = new maplibregl.Marker({ draggable: false, color: "#f77c1a" }).setLngLat(center).addTo(map);
      var editing = false;
      doc.querySelector(".location-edit").hidden = true;
      edit.hidden = false;
      save.disabled = true;
      edit.addEventListener("click", function () {
        editing = true;
        marker.setDraggable(true);
        hint.hidden = false;
        confirm.hidden = false;
        edit.hidden = true;
        save.disabled = true;
      });
      doc.querySelector("[data-got-it]").addEventListener("click", function () { hint.hidden = true; });
      map.on("click", function (event) { if (editing) marker.setLngLat(event.lngLat); });
      confirm.addEventListener("click", function () {
        editing = false;
        marker.setDraggable(false);
        hint.hidden = true;
        confirm.hidden = true;
        edit.hidden = false;
        var point = marker.getLngLat();
        lat.value = point.lat.toFixed(6);
        lng.value = point.lng.toFixed(6);
        save.disabled = false;
      });
    } catch (error) {
      box.hidden = true;
    }
  };
  doc.head.appendChild(script);
})();`;
