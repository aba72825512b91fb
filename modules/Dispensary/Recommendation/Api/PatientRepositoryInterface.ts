import {
  defineContract,
  searchCriteriaParameter,
  type SearchCriteria,
  type SearchFields,
  type SearchResults,
} from '#framework';
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
  /** Patients of the current store (every store under `all`) matching Magento search criteria. */
  getList(searchCriteria: SearchCriteria): Promise<SearchResults<PatientInterface>>;
}

/** What GET /V1/dispensary/patient/search filters and sorts by. */
export const PATIENT_SEARCH_FIELDS: SearchFields = {
  patient_id: 'integer',
  firstname: 'text',
  lastname: 'text',
  email: 'text',
  store_id: 'integer',
  created_at: 'timestamp',
  updated_at: 'timestamp',
};

export const PatientRepositoryInterface = defineContract<PatientRepositoryInterface>(
  'Dispensary\\Recommendation\\Api\\PatientRepositoryInterface',
  {
    save: {
      params: [{ name: 'patient', schema: patientInputSchema, dataInterface: PatientInterface }],
      description: 'Create a patient in the current store',
      returns: PatientInterface,
    },
    get: {
      params: [{ name: 'patientId', schema: patientIdSchema }],
      description: 'A patient of the current store',
      returns: PatientInterface,
    },
    getList: {
      params: [searchCriteriaParameter(PATIENT_SEARCH_FIELDS)],
      description: 'Patients of the current store matching search criteria',
    },
  },
);
