import { inject, injectable, type DataInstaller } from '#framework';
import { Encryptor } from '../Model/Encryptor.js';

/** Creates the crypt key file on first start when CRYPT_KEY is unset, and checks the key either way. */
@injectable()
export class CryptKeyInstaller implements DataInstaller {
  constructor(@inject('Dispensary\\Integration\\Model\\Encryptor') private readonly encryptor: Encryptor) {}

  async install(): Promise<void> {
    this.encryptor.cryptKey();
  }
}
