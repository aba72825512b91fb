/**
 * Port of Magento 2.4 dev/tests/api-functional/testsuite/Magento/CatalogInventory/Api/ProductRepositoryInterfaceTest.php
 * (a product's stock item through /V1/products). Its bodies are sent as Magento's test builds
 * them: custom_attributes (description, quantity_and_stock_status) and every stock item field,
 * which this catalog accepts and ignores except qty and is_in_stock; a GET answer is saved back
 * whole, as the test does.
 *
 * Ported: testCatalogInventory, testCatalogInventoryWithBogusData,
 * testSimpleProductCreationWithoutSpecifyingCatalogInventory. Skipped: none.
 */
import { expect } from 'chai';
import { magentoApp } from '../support.js';

const RESOURCE_PATH = '/V1/products';
const PRODUCT_SKU = 'sku-test-catalog-inventory';

type Product = Record<string, unknown> & { extension_attributes: { stock_item?: Record<string, unknown> } };

const getDifferent = (original: number) => 1 + original * original;

function getSimpleProductData(qty: number | null = 1000): Record<string, unknown> {
  const productData: Record<string, unknown> = {
    sku: PRODUCT_SKU,
    name: PRODUCT_SKU,
    visibility: 4,
    type_id: 'simple',
    price: 10,
    status: 1,
    attribute_set_id: 4,
  };
  if (qty !== null) {
    productData.custom_attributes = [
      { attribute_code: 'description', value: 'My Product Description' },
      { attribute_code: 'quantity_and_stock_status', value: [true, qty] },
    ];
  }
  return productData;
}

function getStockItemData(qty = 1000) {
  return {
    stock_item: {
      qty,
      is_in_stock: true,
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
      use_config_enable_qty_inc: false,
      enable_qty_increments: false,
      use_config_manage_stock: false,
      manage_stock: true,
      low_stock_date: '0',
      is_decimal_divided: false,
      stock_status_changed_auto: 0,
    },
  };
}

describe('Magento api-functional: CatalogInventory\\Api\\ProductRepositoryInterfaceTest', () => {
  const app = magentoApp();

  async function call(method: 'get' | 'post' | 'put' | 'delete', path: string, data?: object): Promise<unknown> {
    const res = await app.call(method, path, data);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body;
  }
  const saveProduct = async (product: object) => (await call('post', RESOURCE_PATH, { product })) as Product;
  const getProduct = async (sku: string) => (await call('get', `${RESOURCE_PATH}/${sku}`)) as Product;
  const updateProduct = async (product: Product) =>
    (await call('put', `${RESOURCE_PATH}/${String(product.sku)}`, { product: { ...product, sku: null } })) as Product;
  const deleteProduct = async (sku: string) => call('delete', `${RESOURCE_PATH}/${sku}`);

  it('testCatalogInventory', async () => {
    let qty = 1234;
    const productData = { ...getSimpleProductData(qty), extension_attributes: getStockItemData(qty) };
    let response = await saveProduct(productData);
    const stockItemData = response.extension_attributes.stock_item!;
    expect(stockItemData.qty, 'CREATE').to.equal(qty);
    expect(stockItemData).to.have.property('item_id');
    expect(stockItemData).to.have.property('product_id');

    response = await getProduct(PRODUCT_SKU);
    expect(response.extension_attributes.stock_item!.qty, 'GET').to.equal(qty);

    qty = getDifferent(qty);
    response.extension_attributes.stock_item!.qty = qty;
    response = await updateProduct(response);
    expect(response.extension_attributes.stock_item!.qty, 'UPDATE 1').to.equal(qty);

    // An update that does not mention the stock item leaves it alone.
    const newPrice = getDifferent(response.price as number);
    response.price = newPrice;
    delete response.extension_attributes.stock_item;
    response = await updateProduct(response);
    expect(response.extension_attributes.stock_item!.qty, 'UPDATE 2').to.equal(qty);
    expect(response.price).to.equal(newPrice);

    expect(await deleteProduct(PRODUCT_SKU)).to.equal(true);
  });

  it('testCatalogInventoryWithBogusData', async () => {
    let qty = 666;
    const productData = { ...getSimpleProductData(qty), extension_attributes: getStockItemData(qty) };
    let response = await saveProduct(productData);
    const stockItemData = response.extension_attributes.stock_item!;
    expect(stockItemData.qty, 'POST 1').to.equal(qty);
    expect(stockItemData).to.have.property('item_id');
    expect(stockItemData).to.have.property('product_id');

    // A new qty is honoured; a wrong product id is ignored.
    qty = 777;
    response.extension_attributes.stock_item!.qty = qty;
    const originalProductId = stockItemData.product_id as number;
    response.extension_attributes.stock_item!.product_id = getDifferent(originalProductId);
    response = await saveProduct(response);
    expect(response.extension_attributes.stock_item!.qty, 'POST 2').to.equal(qty);
    expect(response.extension_attributes.stock_item!.product_id).to.equal(originalProductId);

    expect(await deleteProduct(PRODUCT_SKU)).to.equal(true);
  });

  it('testSimpleProductCreationWithoutSpecifyingCatalogInventory', async () => {
    const productData = getSimpleProductData(null);
    expect(productData).to.not.have.property('custom_attributes');
    expect(productData).to.not.have.property('extension_attributes');
    const response = await saveProduct(productData);
    expect(response.extension_attributes.stock_item).to.have.property('item_id');
    expect(response.extension_attributes.stock_item).to.have.property('product_id');
    expect(await deleteProduct(PRODUCT_SKU)).to.equal(true);
  });
});
