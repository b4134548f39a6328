import { Box, Text } from "@mantine/core";
import { useEffect, useRef } from "react";

type MapLibre = {
  setWorkerUrl(url: string): void;
  Map: new (options: Record<string, unknown>) => {
    on(event: string, handler: (event: { lngLat: { lat: number; lng: number } }) => void): void;
    remove(): void;
  };
  Marker: new (options: Record<string, unknown>) => MapMarker;
};

type MapMarker = {
  setLngLat(point: [number, number] | { lat: number; lng: number }): MapMarker;
  addTo(map: unknown): MapMarker;
};

const VERSION = "5.24.1";

function loadMapLibre(): Promise<MapLibre> {
  const existing = (window as unknown as { maplibregl?: MapLibre }).maplibregl;
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = `/vendor/maplibre-gl-${VERSION}.css`;
    document.head.appendChild(css);
    const script = document.createElement("script");
    script.src = `/vendor/maplibre-gl-${VERSION}.js`;
    script.onload = () => resolve((window as unknown as { maplibregl: MapLibre }).maplibregl);
    script.onerror = reject;
    document.head.appendChild(script);
  });
}

/**
 * The event's position on a map (the pay page's MapLibre, loaded only here and only with
 * JavaScript and WebGL): a click moves the pin and fills the latitude and longitude inputs, which
 * stay the way to set it without JavaScript.
 */
export function LocationMap({
  styleUrl,
  formId,
  latName,
  lngName,
  label,
}: {
  styleUrl: string;
  formId: string;
  latName: string;
  lngName: string;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current || !("WebGLRenderingContext" in window)) return;
    const form = document.getElementById(formId) as HTMLFormElement | null;
    const lat = form?.elements.namedItem(latName) as HTMLInputElement | null;
    const lng = form?.elements.namedItem(lngName) as HTMLInputElement | null;
    if (!lat || !lng) return;
    let removed = false;
    let map: { remove(): void } | undefined;
    loadMapLibre()
      .then((maplibre) => {
        if (removed || !box.current) return;
        maplibre.setWorkerUrl(`/vendor/maplibre-gl-worker-${VERSION}.js`);
        const center: [number, number] = [Number(lng.value) || 47.9783, Number(lat.value) || 29.3759];
        box.current.hidden = false;
        const created = new maplibre.Map({ container: box.current, style: styleUrl, center, zoom: lat.value ? 13 : 9 });
        const marker = new maplibre.Marker({ color: "#f77c1a" }).setLngLat(center);
        marker.addTo(created);
        created.on("click", (event) => {
          marker.setLngLat(event.lngLat);
          lat.value = event.lngLat.lat.toFixed(6);
          lng.value = event.lngLat.lng.toFixed(6);
        });
        map = created;
      })
      .catch(() => undefined);
    return () => {
      removed = true;
      map?.remove();
    };
  }, [styleUrl, formId, latName, lngName]);
  return (
    <Box>
      <Text size="sm" c="dimmed" mb={4}>
        {label}
      </Text>
      <div ref={box} hidden style={{ height: 280, borderRadius: 8 }} />
    </Box>
  );
}
