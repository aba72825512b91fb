import { defineContract } from '#framework';
import { PatientInterface, type PatientInput } from './Data/PatientInterface.js';
import { patientIdSchema, patientInputSchema } from './schemas.js';

export interface PatientRepositoryInterface {
  /**
   * Creates a patient in the current store (not under the `all` scope: 400). The email is unique
   * within a store, case-insensitively (400 on a duplicate).
   */
  save(patient: PatientInput): Promise<PatientInterface>;
  /** The patient, if it belongs to the current store (any store under `all`); else 404. */
  get(patientId: number): Promise<PatientInterface>;
}

export const PatientRepositoryInterface = defineContract<PatientRepositoryInterface>('Dispensary\\Recommendation\\Api\\PatientRepositoryInterface', {
  save: { params: [{ name: 'patient', schema: patientInputSchema, dataInterface: PatientInterface }], description: 'Create a patient in the current store', returns: PatientInterface },
  get: { params: [{ name: 'patientId', schema: patientIdSchema }], description: 'A patient of the current store', returns: PatientInterface },
});
