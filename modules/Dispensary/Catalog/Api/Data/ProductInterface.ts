/** Product output: `{id, sku, name, price, status, extension_attributes: {stock_item: {is_in_stock}}}`. */
export interface ProductInterface {
  id: number;
  sku: string;
  name: string;
  price: number;
  /** 1 enabled, 2 disabled. */
  status: 1 | 2;
  extension_attributes: { stock_item: { is_in_stock: boolean } };
}

/** Product input of POST /V1/products (already validated). */
export interface ProductInput {
  sku: string;
  name: string;
  price?: number;
  status?: 1 | 2;
  extension_attributes?: { stock_item?: { is_in_stock?: boolean } };
}

export const PRODUCT_STATUS_ENABLED = 1;
export const PRODUCT_STATUS_DISABLED = 2;
