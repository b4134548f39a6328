import { Badge, Button, Group, List, Modal, Stack, Text } from "@mantine/core";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { CAMERA_RESTART_MS, QrCamera, useQrCamera } from "~/components/qr-camera";
import { formatDay } from "~/lib/format";
import { CheckinTiles, type CheckinStatistics } from "./checkin-tiles";
import {
  checkOffline,
  loadList,
  loadProblems,
  loadQueue,
  numberOfCode,
  rememberAdmitted,
  saveList,
  saveProblems,
  saveQueue,
  type ListPlace,
  type StoredList,
  type SyncProblem,
} from "./offline-store";
import { ScanResult, type ScanResultPlace, type ScanResultView } from "./scan-result";

const API = "/api/v1/plugins/event";
const SYNC_RETRY_MS = 15_000;

type Props = {
  eventId: number;
  lang: "en" | "ar";
  statistics: CheckinStatistics;
  /** Whether this user may let a ticket of another date in anyway (audited). */
  canAdmitOtherDate: boolean;
  /** The typed-code form: with JavaScript its submit is checked here (online or against the list), without it the page's action answers. */
  children: (onScan: ((code: string) => void) | null) => ReactNode;
};

/**
 * The door with JavaScript: camera scanning, a result dialog, tiles that follow each scan, and
 * check-in that carries on through a network loss against the event's downloaded, signed list.
 */
export function CheckinDoor({ eventId, lang, statistics: initialStatistics, canAdmitOtherDate, children }: Props) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [enhanced, setEnhanced] = useState(false);
  const [online, setOnline] = useState(true);
  const [statistics, setStatistics] = useState(initialStatistics);
  const [waiting, setWaiting] = useState(0);
  const [problems, setProblems] = useState<SyncProblem[]>([]);
  const [list, setList] = useState<{ count: number; madeAt: string } | null>(null);
  const [dialog, setDialog] = useState<ScanResultView | null>(null);
  const syncing = useRef(false);
  const headers = { Accept: "application/json", "Accept-Language": lang };

  useEffect(() => setStatistics(initialStatistics), [initialStatistics]);

  const showList = useCallback(
    (stored: StoredList | null) => setList(stored ? { count: stored.places.length, madeAt: stored.made_at } : null),
    [],
  );

  const refreshStatistics = useCallback(async () => {
    try {
      const response = await fetch(`${API}/checkin/statistics?event=${eventId}`, { headers });
      if (response.ok) setStatistics((await response.json()) as CheckinStatistics);
      else void revalidator.revalidate();
    } catch {
      setOnline(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- headers only carry the page's language
  }, [eventId, lang, revalidator]);

  const downloadList = useCallback(async () => {
    try {
      const response = await fetch(`${API}/checkin/list?event=${eventId}`, { headers });
      if (!response.ok) return;
      const fresh = (await response.json()) as StoredList;
      saveList(fresh);
      showList(fresh);
      setOnline(true);
    } catch {
      setOnline(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- headers only carry the page's language
  }, [eventId, lang, showList]);

  const sync = useCallback(async () => {
    const queue = loadQueue(eventId);
    if (!queue.length || syncing.current) return;
    syncing.current = true;
    try {
      const batchKey = `checkin:${eventId}:batch`;
      const stored = JSON.parse(window.localStorage.getItem(batchKey) ?? "null") as {
        key: string;
        size: number;
      } | null;
      const batch = stored && stored.size <= queue.length ? stored : { key: crypto.randomUUID(), size: queue.length };
      window.localStorage.setItem(batchKey, JSON.stringify(batch));
      const response = await fetch(`${API}/checkin/sync`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json", "Idempotency-Key": batch.key },
        body: JSON.stringify({ event_id: eventId, scans: queue.slice(0, batch.size) }),
      });
      setOnline(true);
      if (!response.ok) return;
      const answer = (await response.json()) as {
        results: { code: string; status: string; message: string; scanned_at: string; place: ScanResultPlace | null }[];
      };
      const found: SyncProblem[] = answer.results
        .filter((result) => result.status !== "admitted")
        .map((result) => ({
          code: result.code,
          number: result.place?.qr_number ?? numberOfCode(result.code, eventId),
          status: result.status as SyncProblem["status"],
          message: result.message,
          scanned_at: result.scanned_at,
        }));
      saveQueue(eventId, loadQueue(eventId).slice(batch.size));
      window.localStorage.removeItem(batchKey);
      const all = [...loadProblems(eventId), ...found];
      saveProblems(eventId, all);
      setProblems(all);
      setWaiting(loadQueue(eventId).length);
      await Promise.all([refreshStatistics(), downloadList()]);
    } catch {
      setOnline(false);
    } finally {
      syncing.current = false;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- headers only carry the page's language
  }, [eventId, lang, refreshStatistics, downloadList]);

  useEffect(() => {
    setEnhanced(true);
    setOnline(navigator.onLine);
    showList(loadList(eventId));
    setWaiting(loadQueue(eventId).length);
    setProblems(loadProblems(eventId));
    if (navigator.onLine) void downloadList().then(sync);
    const goneOnline = () => {
      setOnline(true);
      void sync();
    };
    const goneOffline = () => setOnline(false);
    window.addEventListener("online", goneOnline);
    window.addEventListener("offline", goneOffline);
    const retry = window.setInterval(() => {
      if (navigator.onLine && loadQueue(eventId).length) void sync();
    }, SYNC_RETRY_MS);
    return () => {
      window.removeEventListener("online", goneOnline);
      window.removeEventListener("offline", goneOffline);
      window.clearInterval(retry);
    };
  }, [eventId, downloadList, sync, showList]);

  const placeOf = (place: ListPlace): ScanResultPlace => ({
    qr_number: place.number,
    customer_first_name: place.customer_first_name,
    customer_last_name: place.customer_last_name,
    slot: `${place.event_date} ${place.start_time}–${place.end_time}`,
    ticket: lang === "ar" ? place.ticket_ar : place.ticket_en,
  });

  const scanOffline = (code: string): boolean => {
    setOnline(false);
    const checked = checkOffline(eventId, code, new Date().toISOString());
    setWaiting(loadQueue(eventId).length);
    if (checked.ok) {
      setStatistics((current) => ({
        ...current,
        attended: current.attended + 1,
        not_attended: Math.max(0, current.not_attended - 1),
      }));
      setDialog({
        ok: true,
        message: t("checkin.granted"),
        place: placeOf(checked.place),
        note: t("checkin.offline.admitted"),
      });
      return true;
    }
    const message =
      checked.reason === "other_date" && checked.place
        ? t("checkin.reasons.other_date", { date: formatDay(checked.place.event_date, lang) })
        : t(checked.reason === "unknown" ? "checkin.offline.unknown" : "checkin.offline.used");
    setDialog({ ok: false, message, place: checked.place ? placeOf(checked.place) : null });
    return false;
  };

  /**
   * Checks a code with the server, or against the list when the network is gone; true when the place
   * is admitted. `anyDate`: staff who may let a ticket of another date in chose to (online only, audited).
   */
  const scan = async (code: string, anyDate = false): Promise<boolean> => {
    if (!navigator.onLine) return scanOffline(code);
    let response: Response;
    try {
      response = await fetch(`${API}/validate_qr_code`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ event_id: eventId, qrcode: code, ...(anyDate ? { allow_other_date: true } : {}) }),
      });
    } catch {
      return scanOffline(code);
    }
    setOnline(true);
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown> & Partial<ScanResultPlace>;
    if (response.ok && body.qr_number) {
      rememberAdmitted(eventId, body.qr_number);
      setDialog({ ok: true, message: t("checkin.granted"), place: body as ScanResultPlace });
    } else {
      const reasons = (body.qrcode ?? body.event_id) as string[] | undefined;
      setDialog({
        ok: false,
        message: reasons?.[0] ?? (typeof body.detail === "string" ? body.detail : t("checkin.reasons.unknown")),
        place: (body.place as ScanResultPlace | undefined) ?? null,
        admitAnyway: body.code === "other_date" && canAdmitOtherDate ? code : undefined,
      });
    }
    void refreshStatistics();
    void sync();
    return response.ok;
  };

  const camera = useQrCamera((code) => {
    void scan(code).then((admitted) => {
      if (!admitted) camera.resume(CAMERA_RESTART_MS);
    });
  });

  const closeDialog = () => {
    setDialog(null);
    camera.resume();
  };

  return (
    <Stack gap="md">
      <CheckinTiles statistics={statistics} />
      {enhanced ? (
        <Group gap="sm" data-testid="checkin-network">
          <Badge color={online ? "green" : "orange"} variant="light" size="lg" data-online={online ? "true" : "false"}>
            {online ? t("checkin.network.online") : t("checkin.network.offline")}
          </Badge>
          <Text size="sm" data-testid="checkin-waiting" data-count={waiting}>
            {t("checkin.network.waiting", { count: waiting })}
          </Text>
          <Text size="sm" c="dimmed">
            {list
              ? t("checkin.network.list", {
                  count: list.count,
                  when: new Date(list.madeAt).toLocaleTimeString(lang === "ar" ? "ar-KW-u-nu-latn" : "en-US", {
                    timeZone: "Asia/Kuwait",
                  }),
                })
              : t("checkin.network.no_list")}
          </Text>
        </Group>
      ) : null}
      {problems.length ? (
        <Stack gap={4} role="alert" data-testid="checkin-problems">
          <Text fw={700} c="red">
            {t("checkin.sync.title")}
          </Text>
          <List size="sm">
            {problems.map((problem, index) => (
              <List.Item key={`${problem.code}-${problem.scanned_at}-${index}`}>
                <span dir="ltr">{problem.number ?? problem.code}</span>: {problem.message}
              </List.Item>
            ))}
          </List>
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => {
                saveProblems(eventId, []);
                setProblems([]);
              }}
            >
              {t("checkin.sync.clear")}
            </Button>
          </Group>
        </Stack>
      ) : null}
      <QrCamera
        camera={camera}
        labels={{
          start: t("checkin.camera.start"),
          stop: t("checkin.camera.stop"),
          unavailable: t("checkin.camera.unavailable"),
        }}
      />
      {children(enhanced ? (code) => void scan(code) : null)}
      <Modal opened={dialog !== null} onClose={closeDialog} centered title={t("checkin.result_title")}>
        {dialog ? (
          <Stack>
            <ScanResult result={dialog} />
            <Group>
              {dialog.admitAnyway ? (
                <Button color="orange" variant="light" onClick={() => void scan(dialog.admitAnyway!, true)}>
                  {t("checkin.admit_anyway")}
                </Button>
              ) : null}
              <Button onClick={closeDialog}>{t("checkin.close")}</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
}
