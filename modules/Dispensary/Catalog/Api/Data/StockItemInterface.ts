/**
 * Magento's `CatalogInventory\Api\Data\StockItemInterface`, every field, for the one default stock
 * (`stock_id` 1). `item_id` is the product's id (one stock item per product). Only `qty` and
 * `is_in_stock` are stored; the others are Magento's defaults and do not change.
 */
export interface StockItemInterface {
  item_id: number;
  product_id: number;
  stock_id: number;
  qty: number;
  is_in_stock: boolean;
  is_qty_decimal: boolean;
  show_default_notification_message: boolean;
  use_config_min_qty: boolean;
  min_qty: number;
  use_config_min_sale_qty: number;
  min_sale_qty: number;
  use_config_max_sale_qty: boolean;
  max_sale_qty: number;
  use_config_backorders: boolean;
  backorders: number;
  use_config_notify_stock_qty: boolean;
  notify_stock_qty: number;
  use_config_qty_increments: boolean;
  qty_increments: number;
  use_config_enable_qty_inc: boolean;
  enable_qty_increments: boolean;
  use_config_manage_stock: boolean;
  manage_stock: boolean;
  low_stock_date: string | null;
  is_decimal_divided: boolean;
  stock_status_changed_auto: number;
}

export const DEFAULT_STOCK_ID = 1;

/** A stock item of a product: its stored qty and status, Magento's defaults for the rest. */
export function stockItem(productId: number, qty: number, isInStock: boolean): StockItemInterface {
  return {
    item_id: productId,
    product_id: productId,
    stock_id: DEFAULT_STOCK_ID,
    qty,
    is_in_stock: isInStock,
    is_qty_decimal: false,
    show_default_notification_message: false,
    use_config_min_qty: true,
    min_qty: 0,
    use_config_min_sale_qty: 1,
    min_sale_qty: 1,
    use_config_max_sale_qty: true,
    max_sale_qty: 10000,
    use_config_backorders: true,
    backorders: 0,
    use_config_notify_stock_qty: true,
    notify_stock_qty: 1,
    use_config_qty_increments: true,
    qty_increments: 0,
    use_config_enable_qty_inc: true,
    enable_qty_increments: false,
    use_config_manage_stock: true,
    manage_stock: true,
    low_stock_date: null,
    is_decimal_divided: false,
    stock_status_changed_auto: 0,
  };
}
