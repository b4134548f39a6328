import type { DB } from "~/db/database.server";
import type { Actor } from "~/domain/identity/permissions";
import {
  OPERATION_KINDS,
  operationRequestDecisions,
  specStatusOf,
  type OperationRequestRow,
} from "~/domain/approvals/operation-requests.server";
import { permissionRequestDecisions, type PermissionRequestRow } from "~/domain/approvals/permission-requests.server";
import { GRANTABLE_PERMISSIONS } from "~/domain/approvals/permission-grant-schema";
import { REQUEST_STATES } from "~/domain/approvals/request-filters";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { takesOperations } from "~/domain/payments/gateways/registry";
import type { Language } from "~/lib/i18n";
import { translator } from "~/lib/i18n.server";
import { toDecimalString } from "~/lib/money";
import type { TextParams } from "~/lib/outcome";
import { describe } from "~/presentation/texts.server";

/** The two approval lists as the API answers them, in the reader's language. */

/** What running an approved request answered, in the reader's language. */
export function resultMessage(
  row: Pick<OperationRequestRow, "result" | "result_message">,
  lang: Language,
): string | null {
  if (!row.result) return row.result_message;
  const result = JSON.parse(row.result) as { code: string; params?: TextParams };
  return describe(result.code, result.params, lang);
}

/** The choices of the list's filters (the API's OPTIONS and the page's selects). */
export async function operationRequestFilterChoices(db: DB, merchantId: number, lang: Language) {
  const t = translator(lang);
  const gateways = await listMerchantGateways(db, merchantId);
  const currencies = [
    ...new Set(gateways.flatMap((gateway) => gateway.currencies.split(",").map((code) => code.trim().toUpperCase()))),
  ].filter(Boolean);
  return {
    states: REQUEST_STATES.map((value) => ({ value, display_name: t(`requests.states.${value}`) })),
    types: OPERATION_KINDS.map((value) => ({ value, display_name: t(`tickets.types.${value}`) })),
    gateways: gateways
      .filter((gateway) => takesOperations(gateway.kind))
      .map((gateway) => ({ value: gateway.code, display_name: lang === "ar" ? gateway.name_ar : gateway.name_en })),
    currencies: currencies.map((value) => ({ value, display_name: value })),
  };
}

/** An Operations Request as the API answers it; `base` is the process URL the action URLs hang from. */
export function serializeOperationRequest(row: OperationRequestRow, viewer: Actor, lang: Language, base: string) {
  const t = translator(lang);
  return {
    id: row.id,
    status: specStatusOf(row.state),
    state: row.state,
    state_display: t(`requests.states.${row.state}`),
    type: row.kind,
    type_display: t(`tickets.types.${row.kind}`),
    amount: toDecimalString(row.amount, row.currency_code),
    currency_code: row.currency_code,
    gateway_code: row.gateway_code,
    gateway_name: (lang === "ar" ? row.gateway_name_ar : row.gateway_name_en) ?? row.gateway_code,
    /** Why the maker asked for it, as they wrote it; null when they gave no reason. */
    reason: row.note,
    transaction: {
      id: row.transaction_id,
      order_no: row.order_no,
      type: row.plugin,
      state: row.transaction_state,
      customer_email: row.customer_email,
      paid_amount: toDecimalString(row.paid_amount, row.currency_code),
      refunded_amount: toDecimalString(row.refunded_amount, row.currency_code),
    },
    maker: row.maker_id === null ? null : { id: row.maker_id, username: row.maker_name },
    checker: row.checker_id === null ? null : { id: row.checker_id, username: row.checker_name },
    created: row.created_at,
    expires_at: row.expires_at,
    decided_at: row.decided_at,
    result_message: resultMessage(row, lang),
    actions: operationRequestDecisions(row, viewer).map((decision) => ({
      value: decision,
      display_name: t(`tickets.decisions.${decision}`),
      url: `${base}/${row.id}/${decision}/`,
    })),
  };
}

export function permissionRequestFilterChoices(lang: Language) {
  const t = translator(lang);
  return {
    states: REQUEST_STATES.map((value) => ({ value, display_name: t(`requests.states.${value}`) })),
    types: GRANTABLE_PERMISSIONS.map((value) => ({ value, display_name: t(`tickets.permission_names.${value}`) })),
  };
}

/** A permission request as the API answers it; `base` is the list URL the action URLs hang from. */
export function serializePermissionRequest(row: PermissionRequestRow, viewer: Actor, lang: Language, base: string) {
  const t = translator(lang);
  return {
    id: row.id,
    status: specStatusOf(row.state),
    state: row.state,
    state_display: t(`requests.states.${row.state}`),
    permission: row.permission,
    permission_display: t(`tickets.permission_names.${row.permission}`),
    user: {
      id: row.user_id,
      username: row.username,
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
    },
    requested_by: row.requested_by === null ? null : { id: row.requested_by, username: row.requested_by_name },
    checker: row.checker_id === null ? null : { id: row.checker_id, username: row.checker_name },
    created: row.created_at,
    decided_at: row.decided_at,
    actions: permissionRequestDecisions(row, viewer).map((decision) => ({
      value: decision,
      display_name: t(`tickets.decisions.${decision}`),
      url: `${base}/${row.id}/${decision}/`,
    })),
  };
}
