import { Button, Group, Stack, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QrCamera } from "./qr-camera.client";

const CAMERA_RESTART_MS = 2000;

/**
 * Camera scanning with JavaScript: each code read is handed to `onCode` (the page submits it to its
 * own action, which opens the order or answers 'Invalid QR Code'); after a refused code the camera
 * starts again in 2 s.
 */
export function OrderScanner({ onCode, refused }: { onCode: (code: string) => void; refused: number }) {
  const { t } = useTranslation();
  const [enhanced, setEnhanced] = useState(false);
  const [camera, setCamera] = useState<"off" | "starting" | "on" | "error">("off");
  const video = useRef<HTMLVideoElement>(null);
  const controls = useRef<QrCamera | null>(null);
  const wanted = useRef(false);

  const start = async () => {
    wanted.current = true;
    if (!video.current || controls.current) return;
    setCamera("starting");
    try {
      const { startQrCamera } = await import("./qr-camera.client");
      controls.current = await startQrCamera(video.current, (code) => {
        controls.current = null;
        setCamera("off");
        onCode(code);
      });
      setCamera("on");
    } catch {
      controls.current = null;
      setCamera("error");
    }
  };

  const stop = () => {
    wanted.current = false;
    controls.current?.stop();
    controls.current = null;
    setCamera("off");
  };

  useEffect(() => {
    setEnhanced(true);
    return () => controls.current?.stop();
  }, []);

  // A refused code: scan again shortly.
  useEffect(() => {
    if (!refused || !wanted.current) return;
    const timer = window.setTimeout(() => wanted.current && void start(), CAMERA_RESTART_MS);
    return () => window.clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- start only reads refs
  }, [refused]);

  if (!enhanced) return null;
  return (
    <Stack gap="xs">
      <Group>
        {camera === "off" || camera === "error" ? (
          <Button variant="light" onClick={() => void start()}>
            {t("food_orders.fulfillment.camera_start")}
          </Button>
        ) : (
          <Button variant="light" color="gray" onClick={stop}>
            {t("food_orders.fulfillment.camera_stop")}
          </Button>
        )}
      </Group>
      {camera === "error" ? (
        <Text size="sm" c="red" role="alert">
          {t("food_orders.fulfillment.camera_unavailable")}
        </Text>
      ) : null}
      <video
        ref={video}
        muted
        playsInline
        hidden={camera !== "on" && camera !== "starting"}
        style={{ width: "100%", maxWidth: 420, borderRadius: 8 }}
      />
    </Stack>
  );
}
