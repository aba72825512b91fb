/**
 * Magento\Framework\DataObject: a bag of named values, given whole to the constructor (di.xml
 * `<argument name="data" xsi:type="array">`). Provided so a ported module's
 * `<virtualType name="..." type="Magento\Framework\DataObject">` works as in Magento.
 */
export class DataObject {
  private readonly data: Record<string, unknown>;

  constructor(data: Record<string, unknown> = {}) {
    this.data = { ...data };
  }

  /** One value, or all of them (a copy) when no key is given. */
  getData(key?: string): unknown {
    return key === undefined ? { ...this.data } : this.data[key];
  }

  setData(key: string, value: unknown): this {
    this.data[key] = value;
    return this;
  }

  hasData(key: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data, key);
  }
}
