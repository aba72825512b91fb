/** A patient (a Magento customer of one store) as the web API returns it. */
export interface PatientInterface {
  patient_id: number;
  firstname: string;
  lastname: string;
  email: string;
  store_id: number;
}

/** The validated `patient` of a creation request (trimmed). */
export interface PatientInput {
  firstname: string;
  lastname: string;
  email: string;
}
