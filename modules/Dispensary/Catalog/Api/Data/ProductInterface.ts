import type { StockItemInterface } from './StockItemInterface.js';

/** Product output: `{id, sku, name, price, status, created_at, updated_at, extension_attributes: {stock_item}}`. */
export interface ProductInterface {
  id: number;
  sku: string;
  name: string;
  price: number;
  /** 1 enabled, 2 disabled. */
  status: 1 | 2;
  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
  updated_at: string;
  extension_attributes: { stock_item: StockItemInterface };
}

/** Product input of POST and PUT /V1/products (already validated; PUT may leave sku and name out). */
export interface ProductInput {
  sku?: string;
  name?: string;
  price?: number;
  status?: 1 | 2;
  extension_attributes?: { stock_item?: { is_in_stock?: boolean; qty?: number } };
}

export const PRODUCT_STATUS_ENABLED = 1;
export const PRODUCT_STATUS_DISABLED = 2;
