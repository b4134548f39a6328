import type { Route } from "./+types/gateway";
import {
  checkGatewayInput,
  findGatewayForAdmin,
  testGatewayConnection,
  updateGateway,
} from "~/domain/payments/gateway-admin.server";
import { listMerchantGateways } from "~/domain/payments/gateway-settings.server";
import { platformAddresses } from "~/web/addresses.server";
import {
  apiDetail,
  apiErrors,
  apiJson,
  apiLanguage,
  methodNotAllowed,
  readBody,
  requireApiPermission,
  requireApiUser,
} from "~/web/api.server";
import { translator } from "~/lib/i18n.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { recordId } from "~/web/record-id";
import { sandboxCredentialsFor } from "~/domain/sandbox/accounts.server";
import { gatewayInputOf } from "./gateway-input.server";
import { managerOf } from "~/domain/identity/users.server";

/** GET one gateway, credentials only as set or not. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  const found = id === null ? undefined : await findGatewayForAdmin(getDbFrom(context), user.merchantId, id);
  return found ? apiJson(found) : apiDetail(request, "api.not_found", 404);
}

/**
 * PATCH changes the fields it is sent (credentials: the fields typed replace the stored ones, the
 * others stay). POST on `.../test` runs "Test connection": `{"result": "connected" | "refused" |
 * "unreachable" | "nothing_to_test", "message", "detail"}`.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const id = recordId(params.id);
  if (id === null) return apiDetail(request, "api.not_found", 404);
  const db = getDbFrom(context);
  const manager = managerOf(user);
  const ip = context.get(clientAddressContext);
  if (new URL(request.url).pathname.replace(/\/$/, "").endsWith("/test")) {
    if (request.method !== "POST") return methodNotAllowed(request);
    const tested = await testGatewayConnection(db, { manager, id, platform: platformAddresses(request), ip });
    if (!tested.ok) return apiDetail(request, "api.not_found", 404);
    return apiJson({
      result: tested.result,
      message: translator(apiLanguage(request))(`admin.gateways.test.${tested.result}`),
      detail: tested.detail,
    });
  }
  if (request.method !== "PATCH") return methodNotAllowed(request);
  const current = (await listMerchantGateways(db, user.merchantId)).find((row) => row.id === id);
  if (!current) return apiDetail(request, "api.not_found", 404);
  const input = gatewayInputOf(await readBody(request));
  if (!input.ok) return apiErrors(request, input.errors);
  if (input.value.code !== undefined && input.value.code !== current.code)
    return apiErrors(request, { code: ["api.read_only_field"] });
  const checked = await checkGatewayInput({ ...input.value, code: undefined }, current);
  if (!checked.ok) return apiErrors(request, checked.errors);
  const updated = await updateGateway(db, {
    manager,
    id,
    checked: checked.checked,
    sandbox: sandboxCredentialsFor,
    ip,
  });
  return updated.ok ? apiJson(updated.gateway) : apiDetail(request, "api.not_found", 404);
}
