import { ConnectionProvider, FrameworkServices, inject, injectable, type DataInstaller } from '#framework';
import { attributeRow, PRODUCT_ATTRIBUTES } from '../Model/ProductAttributes.js';

/** Writes the product attributes' rows on every setup:upgrade (a changed definition is written again). Safe from several processes at once. */
@injectable()
export class ProductAttributeInstaller implements DataInstaller {
  constructor(@inject(FrameworkServices.ConnectionProvider) private readonly connection: ConnectionProvider) {}

  async install(): Promise<void> {
    const rows = PRODUCT_ATTRIBUTES.map(attributeRow);
    const columns = Object.keys(rows[0]!).filter((c) => c !== 'attribute_id');
    await this.connection.get()('catalog_product_attribute').insert(rows).onConflict('attribute_id').merge(columns);
  }
}
