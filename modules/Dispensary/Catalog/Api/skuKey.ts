/**
 * Skus match case-insensitively after trimming (as Magento does on MySQL's case-insensitive
 * collation). Every table that looks a sku up stores this key beside the sku as spelled.
 */
export function skuKey(sku: string): string {
  return sku.trim().toLowerCase();
}
