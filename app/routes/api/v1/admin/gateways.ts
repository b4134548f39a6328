import type { Route } from "./+types/gateways";
import { checkGatewayInput, createGateway, listGatewaysForAdmin } from "~/domain/payments/gateway-admin.server";
import { apiErrors, apiJson, methodNotAllowed, readBody, requireApiPermission, requireApiUser } from "~/web/api.server";
import { clientAddressContext, getDbFrom } from "~/web/request-context.server";
import { sandboxCredentialsFor } from "~/domain/sandbox/accounts.server";
import { gatewayInputOf } from "./gateway-input.server";
import { managerOf } from "~/domain/identity/users.server";

/** GET the merchant's gateways in the order customers see them; credentials only as set or not, with the date. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  return apiJson(await listGatewaysForAdmin(getDbFrom(context), user.merchantId));
}

/**
 * POST `{"kind", "code", "name_en", "name_ar", "currencies", "fee_fixed", "fee_percentage",
 * "fee_payer", "capture_mode", "mode", "endpoint_url", "enabled", "credentials": {...}}` adds a
 * gateway (off unless `enabled`). Answers 201 with it, credentials never included.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed(request);
  const { user } = await requireApiUser(request, context);
  requireApiPermission(request, user, "manage_merchant");
  const input = gatewayInputOf(await readBody(request));
  if (!input.ok) return apiErrors(request, input.errors);
  const checked = await checkGatewayInput(input.value);
  if (!checked.ok) return apiErrors(request, checked.errors);
  const created = await createGateway(getDbFrom(context), {
    manager: managerOf(user),
    checked: checked.checked,
    sandbox: sandboxCredentialsFor,
    ip: context.get(clientAddressContext),
  });
  if (!created.ok) return apiErrors(request, { [created.field ?? "non_field_errors"]: [created.code] });
  return apiJson(created.gateway, 201);
}
