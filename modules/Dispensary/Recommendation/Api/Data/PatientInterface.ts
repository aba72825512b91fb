import { defineDataInterface, type ExtensionAttributes } from '#framework';

/** A patient (a Magento customer of one store) as the web API returns it. */
export interface PatientInterface {
  patient_id: number;
  firstname: string;
  lastname: string;
  email: string;
  store_id: number;
  /** Declared in etc/extension_attributes.xml of any module; filled by modules' plugins. */
  extension_attributes?: ExtensionAttributes;
}

export const PatientInterface = defineDataInterface<PatientInterface>('Dispensary\\Recommendation\\Api\\Data\\PatientInterface');

/** The validated `patient` of a creation request (trimmed). */
export interface PatientInput {
  firstname: string;
  lastname: string;
  email: string;
}
