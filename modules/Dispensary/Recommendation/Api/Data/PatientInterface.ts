import { defineDataInterface } from '#framework';

/** A patient (a Magento customer of one store) as the web API returns it. */
export interface PatientInterface {
  patient_id: number;
  firstname: string;
  lastname: string;
  email: string;
  store_id: number;
  /** Declared in etc/extension_attributes.xml of any module; filled by modules' plugins. */
  extension_attributes?: PatientExtensionInterface;
}

/** Magento's generated `PatientExtensionInterface`: `setup:di:compile` adds every attribute etc/extension_attributes.xml declares. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation in generated/
export interface PatientExtensionInterface {}

export const PatientInterface = defineDataInterface<PatientInterface>(
  'Dispensary\\Recommendation\\Api\\Data\\PatientInterface',
);

/** The validated `patient` of a creation request (trimmed). */
export interface PatientInput {
  firstname: string;
  lastname: string;
  email: string;
}
