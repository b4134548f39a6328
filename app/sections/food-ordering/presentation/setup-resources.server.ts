import type { DB } from "~/db/database.server";
import type { Language } from "~/lib/i18n";
import { BranchSchema, DeliveryAreaSchema } from "../domain/branch-schema";
import {
  deleteArea,
  deleteBranch,
  getArea,
  getBranch,
  listAreas,
  listBranches,
  loadBranchHours,
  saveArea,
  saveBranch,
  serializeArea,
  serializeBranch,
} from "../domain/branches-admin.server";
import { CategorySchema, MenuItemSchema } from "../domain/menu-schema";
import {
  deleteCategory,
  deleteItem,
  getCategory,
  getItem,
  listCategories,
  listItems,
  loadItemDetails,
  saveCategory,
  saveItem,
  serializeCategory,
  serializeItem,
} from "../domain/menu-admin.server";
import { idOf, type Actor, type SetupOutcome } from "../domain/setup-fields";
import { VoucherSchema } from "../domain/voucher-schema";
import {
  deleteVoucher,
  getVoucher,
  listVouchers,
  saveVoucher,
  serializeVoucher,
} from "../domain/vouchers-admin.server";

type Ctx = { db: DB; merchantId: number; currency: string; lang: Language };
type Write = { merchantId: number; actor: Actor; ip?: string | null };

/**
 * The set-up resources of the management API (`dashboard/<name>`), each with its schema, its
 * list (query string filters), its reader, its writer and its remover, so one pair of routes
 * serves them all with the same rules.
 */
export type SetupResource = {
  schema: {
    safeParse(
      body: unknown,
    ):
      | { success: true; data: any }
      | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  };
  list(ctx: Ctx, query: URLSearchParams): Promise<unknown[]>;
  get(ctx: Ctx, id: number): Promise<unknown | undefined>;
  save(db: DB, change: Write & { input: any; id?: number }): Promise<SetupOutcome<{ id: number }>>;
  remove(db: DB, input: Write & { id: number }): Promise<{ ok: true; deactivated: boolean } | { ok: false }>;
};

const branchView = async (ctx: Ctx, branch: Awaited<ReturnType<typeof getBranch>>) =>
  branch ? serializeBranch(branch, await loadBranchHours(ctx.db, branch.id), ctx.currency, ctx.lang) : undefined;

export const SETUP_RESOURCES: Record<string, SetupResource> = {
  categories: {
    schema: CategorySchema,
    list: async (ctx) =>
      (await listCategories(ctx.db, ctx.merchantId)).map((row) => serializeCategory(row, ctx.currency, ctx.lang)),
    get: async (ctx, id) => {
      const row = await getCategory(ctx.db, ctx.merchantId, id);
      return row && serializeCategory(row, ctx.currency, ctx.lang);
    },
    save: saveCategory,
    remove: deleteCategory,
  },
  "menu-items": {
    schema: MenuItemSchema,
    list: async (ctx, query) => {
      const category = query.get("category");
      const categoryId = category ? (idOf(category) ?? -1) : undefined;
      const items = await listItems(ctx.db, ctx.merchantId, { categoryId });
      const out = [];
      for (const item of items) out.push(serializeItem(await loadItemDetails(ctx.db, item), ctx.currency, ctx.lang));
      return out;
    },
    get: async (ctx, id) => {
      const row = await getItem(ctx.db, ctx.merchantId, id);
      return row && serializeItem(await loadItemDetails(ctx.db, row), ctx.currency, ctx.lang);
    },
    save: saveItem,
    remove: deleteItem,
  },
  branches: {
    schema: BranchSchema,
    list: async (ctx) => {
      const { rows } = await listBranches(ctx.db, ctx.merchantId);
      const out = [];
      for (const row of rows) out.push(await branchView(ctx, row));
      return out;
    },
    get: async (ctx, id) => branchView(ctx, await getBranch(ctx.db, ctx.merchantId, id)),
    save: saveBranch,
    remove: deleteBranch,
  },
  "delivery-areas": {
    schema: DeliveryAreaSchema,
    list: async (ctx, query) => {
      const branch = query.get("branch");
      const branchId = branch ? (idOf(branch) ?? -1) : undefined;
      return (await listAreas(ctx.db, ctx.merchantId, { branchId })).map((row) =>
        serializeArea(row, ctx.currency, ctx.lang),
      );
    },
    get: async (ctx, id) => {
      const row = await getArea(ctx.db, ctx.merchantId, id);
      return row && serializeArea(row, ctx.currency, ctx.lang);
    },
    save: saveArea,
    remove: deleteArea,
  },
  vouchers: {
    schema: VoucherSchema,
    list: async (ctx) => (await listVouchers(ctx.db, ctx.merchantId)).map((row) => serializeVoucher(row, ctx.currency)),
    get: async (ctx, id) => {
      const row = await getVoucher(ctx.db, ctx.merchantId, id);
      return row && serializeVoucher(row, ctx.currency);
    },
    save: saveVoucher,
    remove: deleteVoucher,
  },
};
